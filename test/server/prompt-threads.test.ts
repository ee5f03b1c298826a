import assert from "node:assert/strict";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

// Long enough to be evaluated as one prompt-sized decode (more than 8 tokens).
const PROMPT = "export function mean(values: readonly number[]): number {\n  if (values.length === 0) return 0;\n  return values.reduce((sum, v) => sum + v, 0) / values.length;\n}\n\nexport function clamp(value: number, low: number, high: number): number {\n  return ";

describe("prompt threads (--threads-batch)", function () {
  this.timeout(120_000);
  let one: TestServer;
  let two: TestServer;
  before(async () => {
    one = await startServer({ threads: 1, threadsBatch: 1 });
    two = await startServer({ threads: 1, threadsBatch: 2 });
  });
  after(async () => {
    await one.close();
    await two.close();
  });

  const complete = async (server: TestServer, body: Record<string, unknown>) => {
    const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 16, temperature: 0, ...body } });
    assert.equal(response.status, 200, await response.clone().text());
    const json = (await response.json()) as { choices: { text: string }[] };
    return { evaluated: Number(response.headers.get("x-wisp-prompt-tokens-evaluated")), texts: json.choices.map((c) => c.text) };
  };

  it("writes the same text with 2 prompt threads as with 1: greedy, seeded, n > 1, fill-in-the-middle", async () => {
    const bodies: Record<string, unknown>[] = [{}, { temperature: 0.8, seed: 5, n: 3 }, { suffix: "\n}\n", max_tokens: 12 }];
    for (const body of bodies) {
      const [a, b] = [await complete(one, body), await complete(two, body)];
      assert.ok(a.texts.every((t) => t !== ""), JSON.stringify(a.texts));
      assert.deepEqual(b.texts, a.texts, JSON.stringify(body));
    }
  });

  it("a warm-up (max_tokens 0) evaluates the prompt once; the completion after it reuses it", async () => {
    const prompt = `${PROMPT}Math.min(high, `;
    const warm = await complete(two, { prompt, max_tokens: 0 });
    assert.deepEqual(warm.texts, [""]);
    assert.ok(warm.evaluated > 8, `the warm-up evaluated ${warm.evaluated} tokens`);
    const next = await complete(two, { prompt });
    assert.ok(next.evaluated <= 1, `evaluated ${next.evaluated} after the warm-up`);
    assert.deepEqual(next.texts, (await complete(one, { prompt })).texts);
  });
});
