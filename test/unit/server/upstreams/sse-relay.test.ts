import assert from "node:assert/strict";
import { relayedUsage } from "../../../../src/server/upstreams/relayed-usage";
import { SseRelay } from "../../../../src/server/upstreams/sse-relay";

const event = (data: object | string) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const text = (content: string) => event({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }], usage: null });
const usage = event({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } });

/** Everything the relay sends on for `pieces`, as text. */
function relayed(relay: SseRelay, pieces: Buffer[]): string {
  return Buffer.concat(pieces.flatMap((piece) => relay.push(piece) ?? [])).toString("utf8");
}

describe("SseRelay", () => {
  it("passes whole events on as they complete, even when split mid-character", () => {
    const relay = new SseRelay(false);
    const bytes = Buffer.from(text("héllo") + text("wörld"));
    const cut = bytes.indexOf(Buffer.from("é")) + 1;
    assert.equal(relay.push(bytes.subarray(0, cut)), undefined);
    assert.equal(relay.push(bytes.subarray(cut))?.toString("utf8"), bytes.toString("utf8"));
    assert.equal(relay.choiceEvents, 2);
  });

  it("sends each event once its blank line has come, also when the blank line is split between pieces", () => {
    const relay = new SseRelay(false);
    const first = text("one");
    assert.equal(relay.push(Buffer.from(first.slice(0, -1))), undefined);
    assert.equal(relay.push(Buffer.from(first.slice(-1) + text("two").slice(0, 10)))?.toString("utf8"), first);
    assert.equal(relay.push(Buffer.from(text("two").slice(10)))?.toString("utf8"), text("two"));
    assert.equal(relay.choiceEvents, 2);
  });

  it("puts an event that came in many small pieces back together", () => {
    const relay = new SseRelay(false);
    const stream = text("x".repeat(5000)) + text("y");
    const bytes = Buffer.from(stream);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    assert.equal(relayed(relay, pieces), stream);
    assert.equal(relay.choiceEvents, 2);
  });

  it("takes events whose lines end in CRLF or CR (sse-starlette's) as they come, usage too, even with a CRLF split between pieces", () => {
    const crlf = (lf: string) => lf.replaceAll("\n", "\r\n");
    const relay = new SseRelay(true);
    assert.equal(relay.push(Buffer.from(crlf(text("one"))))?.toString("utf8"), text("one"));
    const two = crlf(text("two"));
    // Cut between the last CR and its LF: the CR already ends the event, the LF is not a line of its own.
    assert.equal(relay.push(Buffer.from(two.slice(0, -1)))?.toString("utf8"), text("two"));
    assert.equal(relay.push(Buffer.from(two.slice(-1) + text("three").replaceAll("\n", "\r")))?.toString("utf8"), text("three"));
    assert.equal(relay.push(Buffer.from(crlf(usage + event("[DONE]")))), undefined);
    assert.deepEqual(relay.usage, { prompt_tokens: 7, completion_tokens: 2 });
    assert.equal(relay.end().toString("utf8"), event("[DONE]"));
    assert.equal(relay.choiceEvents, 3);
  });

  it("notes the usage chunk, and leaves it out only for clients that did not ask for it", () => {
    const stream = text("a") + text("b") + usage + event("[DONE]");
    const asked = new SseRelay(false);
    assert.equal(relayed(asked, [Buffer.from(stream)]) + asked.end().toString("utf8"), stream);
    assert.deepEqual(asked.usage, { prompt_tokens: 7, completion_tokens: 2 });
    const notAsked = new SseRelay(true);
    assert.equal(relayed(notAsked, [Buffer.from(stream)]) + notAsked.end().toString("utf8"), text("a") + text("b") + event("[DONE]"));
    assert.equal(notAsked.usage?.completion_tokens, 2);
    const alone = new SseRelay(true);
    assert.equal(relayed(alone, [Buffer.from(text("a")), Buffer.from(usage), Buffer.from(event("[DONE]"))]) + alone.end().toString("utf8"), text("a") + event("[DONE]"));
    assert.equal(alone.usage?.prompt_tokens, 7);
  });

  it("holds the tail (the final usage chunk and [DONE]) back until the end, so usage is recorded before the client has it all", () => {
    const asked = new SseRelay(false);
    assert.equal(relayed(asked, [Buffer.from(text("a") + usage), Buffer.from(event("[DONE]"))]), text("a"));
    assert.equal(asked.end().toString("utf8"), usage + event("[DONE]"));
    const noUsage = new SseRelay(true);
    assert.equal(relayed(noUsage, [Buffer.from(text("a")), Buffer.from(event("[DONE]"))]), text("a"));
    assert.equal(noUsage.end().toString("utf8"), event("[DONE]"));
  });

  it("passes usage that comes with every chunk (continuous usage) as it comes", () => {
    const relay = new SseRelay(false);
    const chunk = event({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "a" } }], usage: { prompt_tokens: 7, completion_tokens: 1 } });
    assert.equal(relayed(relay, [Buffer.from(chunk)]), chunk);
    assert.equal(relay.usage?.completion_tokens, 1);
  });

  it("gives back what was left without a closing blank line at the end", () => {
    const relay = new SseRelay(false);
    assert.equal(relay.push(Buffer.from('data: {"choices":[{"text":"x"}]}\n')), undefined);
    assert.equal(relay.end().toString("utf8"), 'data: {"choices":[{"text":"x"}]}\n');
  });

  it("keeps of an upstream's usage only counts that are numbers of tokens: 3.5 rounded, a string, 1e400 or a negative left out", () => {
    const relay = new SseRelay(true);
    relayed(relay, [Buffer.from(text("a") + 'data: {"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":3.5,"completion_tokens":1e400}}\n\n')]);
    assert.deepEqual(relay.usage, { prompt_tokens: 4 });
    assert.deepEqual(relayedUsage({ prompt_tokens: "12", completion_tokens: -1 }), undefined);
    assert.deepEqual(relayedUsage({ prompt_tokens: 7, completion_tokens: 2 ** 60 }), { prompt_tokens: 7 });
    assert.deepEqual(relayedUsage({ prompt_tokens: 7, completion_tokens: 2 }), { prompt_tokens: 7, completion_tokens: 2 });
  });
});
