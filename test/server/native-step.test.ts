import assert from "node:assert/strict";
import { loadNativeStep } from "../../src/server/engines/text/native-step";
import { neverEnd, readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const PROMPT = "export function mean(values: readonly number[]): number {\n  if (values.length === 0) return 0;\n  return ";

// decode-step is built by `npm ci` (scripts/build-native.mjs, postinstall): these tests need it.
describe("generation steps on the server's thread (build/native/decode-step.node)", function () {
  this.timeout(120_000);
  let native: TestServer;
  let pool: TestServer;
  before(async () => {
    native = await startServer({ nativeStep: true });
    pool = await startServer({ nativeStep: false });
  });
  after(async () => {
    await native.close();
    await pool.close();
  });

  const complete = async (server: TestServer, body: Record<string, unknown>) => {
    const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 24, temperature: 0, ...body } });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { choices: { text: string; finish_reason: string }[] }).choices;
  };

  it("is in use, and the server says so", async () => {
    await complete(native, { max_tokens: 1 });
    await complete(pool, { max_tokens: 1 });
    assert.match(await native.deps.textEngine.describeBinary(), /generation steps on the server's thread \(decode-step\)/);
    assert.match(await pool.deps.textEngine.describeBinary(), /generation steps on node-llama-cpp's thread pool: off \(--no-native-step\)/);
  });

  it("writes the same text as node-llama-cpp's own calls: greedy, seeded with n = 3, penalties, fill-in-the-middle, stop", async () => {
    const bodies: Record<string, unknown>[] = [
      {},
      { temperature: 0.8, seed: 5, n: 3 },
      { temperature: 0.8, seed: 7 },
      { temperature: 0.7, top_p: 0.9, seed: 11, presence_penalty: 0.5, frequency_penalty: 0.5 },
      { suffix: "\n}\n", max_tokens: 12 },
    ];
    for (const body of bodies) {
      const [a, b] = [await complete(pool, body), await complete(native, body)];
      assert.ok(a.every((c) => c.text !== ""), JSON.stringify(a));
      assert.deepEqual(b, a, JSON.stringify(body));
    }
    // A stop string cut from the text the pool path wrote: both stop at the same place.
    const [full] = await complete(pool, { max_tokens: 24 });
    const stop = full!.text.slice(6, 9);
    assert.deepEqual(await complete(native, { stop: [stop] }), await complete(pool, { stop: [stop] }));
    // The steps generated past the stop stay in the sequence's cache: a prompt that goes on from
    // the stopped text reuses it and writes the same as the pool path.
    const onward = { prompt: PROMPT + full!.text.slice(0, 6) + "x", max_tokens: 16 };
    assert.deepEqual(await complete(native, onward), await complete(pool, onward));
  });

  it("two streams at once (one decode for both) write what each writes alone", async () => {
    const alone = [await complete(native, { seed: 1, temperature: 0.9 }), await complete(native, { seed: 2, temperature: 0.9 })];
    const stream = async (seed: number) => {
      const s = await native.client.completions.create({ model: TEXT_MODEL, prompt: PROMPT, max_tokens: 24, temperature: 0.9, seed, stream: true });
      let text = "";
      for await (const chunk of s) text += chunk.choices[0]?.text ?? "";
      return text;
    };
    const together = await Promise.all([stream(1), stream(2)]);
    assert.deepEqual(together, alone.map((choices) => choices[0]!.text));
  });

  it("generates a lone stream several tokens per call: fewer pieces of text than tokens, the same text", async () => {
    const body = { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 300, temperature: 0, stream: true, stream_options: { include_usage: true }, logit_bias: await neverEnd(native) };
    const pieces = async (server: TestServer) => {
      const events = (await readSse(await server.fetch("/v1/completions", { json: body }))).slice(0, -1) as { choices: { text: string }[]; usage?: { completion_tokens: number } }[];
      const texts = events.map((e) => e.choices[0]?.text ?? "").filter((t) => t !== "");
      return { text: texts.join(""), pieces: texts.length, tokens: events.at(-1)!.usage!.completion_tokens };
    };
    const [runs, steps] = [await pieces(native), await pieces(pool)];
    assert.equal(runs.tokens, 300);
    assert.equal(runs.text, steps.text);
    // The pool path writes a piece per token (fewer where tokens join into one character).
    assert.ok(steps.pieces > 150, `${steps.pieces} pieces`);
    assert.ok(runs.pieces <= steps.pieces / 3, `${runs.pieces} pieces for ${runs.tokens} tokens, ${steps.pieces} through the pool`);
  });

  it("answers other requests while it generates (the event loop gets its turn between steps)", async () => {
    const events: string[] = [];
    // The whole 1,500 tokens (no end-of-generation token): long enough for a request beside it.
    const long = native.client.completions.create({ model: TEXT_MODEL, prompt: PROMPT, max_tokens: 1500, temperature: 0.9, seed: 3, stream: true, logit_bias: await neverEnd(native) });
    let finish: string | null | undefined;
    const streamed = (async () => {
      let chunks = 0;
      for await (const chunk of await long) {
        if (chunks++ === 0) events.push("first token");
        finish ??= chunk.choices[0]?.finish_reason;
      }
      events.push("stream ended");
    })();
    while (!events.includes("first token")) await new Promise((resolve) => setTimeout(resolve, 5));
    const models = await native.fetch("/v1/models");
    assert.equal(models.status, 200);
    events.push("models listed");
    await streamed;
    assert.equal(finish, "length");
    assert.deepEqual(events, ["first token", "models listed", "stream ended"]);
  });

  it("hands what a model load freed back to the system, and the loaded model still answers", async () => {
    // The model loader calls it while a model loads and its context is created, and after (glibc's
    // malloc_trim): the pages it hands back must be none the model still uses.
    assert.equal(loadNativeStep().step?.releaseFreeMemory?.(), true);
    const [choice] = await complete(native, { max_tokens: 8 });
    assert.equal(choice!.finish_reason, "length");
  });
});
