import assert from "node:assert/strict";
import { SseRelay } from "../../../../src/server/upstreams/sse-relay";

const event = (data: object | string) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const text = (content: string) => event({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }], usage: null });
const usage = event({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } });

describe("SseRelay", () => {
  it("passes whole events on as they complete, even when split mid-character", () => {
    const relay = new SseRelay(false);
    const bytes = Buffer.from(text("héllo") + text("wörld"));
    const cut = bytes.indexOf(Buffer.from("é")) + 1;
    let out = relay.push(bytes.subarray(0, cut));
    assert.equal(out, "");
    out += relay.push(bytes.subarray(cut));
    assert.equal(out, bytes.toString("utf8"));
    assert.equal(relay.choiceEvents, 2);
  });

  it("notes the usage chunk, and leaves it out only for clients that did not ask for it", () => {
    const stream = text("a") + text("b") + usage + event("[DONE]");
    const asked = new SseRelay(false);
    assert.equal(asked.push(Buffer.from(stream)), stream);
    assert.deepEqual(asked.usage, { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
    const notAsked = new SseRelay(true);
    assert.equal(notAsked.push(Buffer.from(stream)), text("a") + text("b") + event("[DONE]"));
    assert.equal(notAsked.usage?.completion_tokens, 2);
  });

  it("gives back what was left without a closing blank line at the end", () => {
    const relay = new SseRelay(false);
    assert.equal(relay.push(Buffer.from("data: {\"choices\":[{\"text\":\"x\"}]}\n")), "");
    assert.equal(relay.end(), "data: {\"choices\":[{\"text\":\"x\"}]}\n");
  });
});
