import assert from "node:assert/strict";
import { metricsOf, readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

// Code that repeats itself, so that guesses from the prompt can come true.
const PROMPT = "const total = values.reduce((sum, value) => sum + value, 0);\nconst count = values.length;\nconst total = values.reduce((sum, value) => sum + ";

describe("input lookup (speculative decoding from the prompt)", function () {
  this.timeout(120_000);
  let plain: TestServer;
  let lookup: TestServer;
  before(async () => {
    plain = await startServer({ inputLookup: 0 });
    lookup = await startServer({ inputLookup: 4 });
  });
  after(async () => {
    await plain.close();
    await lookup.close();
  });

  const complete = async (server: TestServer, body: Record<string, unknown>) => {
    const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 24, temperature: 0, ...body } });
    assert.equal(response.status, 200, await response.clone().text());
    return { headers: response.headers, body: (await response.json()) as { choices: { text: string; finish_reason: string }[]; usage: { completion_tokens: number } } };
  };

  it("gives exactly the text generation without it gives: greedy, seeded sampling, stops, n > 1", async () => {
    const model = await lookup.deps.textEngine.model(TEXT_MODEL, lookup.deps.registry.get(TEXT_MODEL)!.path);
    const [value] = model.tokenize(" value");
    const bodies: Record<string, unknown>[] = [
      {},
      { temperature: 1, seed: 3 },
      { temperature: 0.7, top_p: 0.9, seed: 9, n: 3 },
      // Forcing one token makes every guess from the repeated text come true.
      { logit_bias: { [String(value)]: 100 } },
      { logit_bias: { [String(value)]: 100 }, stop: [" value value value"] },
      { max_tokens: 5, logit_bias: { [String(value)]: 100 } },
    ];
    for (const body of bodies) {
      const [a, b] = [await complete(plain, body), await complete(lookup, body)];
      assert.deepEqual(b.body.choices, a.body.choices, JSON.stringify(body));
      assert.equal(b.body.usage.completion_tokens, a.body.usage.completion_tokens);
    }
    const { lookupPredicted, lookupAccepted } = await metricsOf(lookup);
    assert.ok(lookupAccepted > 10, `accepted ${lookupAccepted} of ${lookupPredicted} guesses`);
    assert.deepEqual(await metricsOf(plain).then((m) => [m.lookupPredicted, m.lookupAccepted]), [0, 0]);
  });

  it("streams the same text, and the prompt is reused afterwards as without guesses", async () => {
    const events = await readSse(await lookup.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 24, temperature: 0, stream: true } }));
    const streamed = (events.slice(0, -1) as { choices: { text: string }[] }[]).map((c) => c.choices[0]?.text ?? "").join("");
    assert.equal(streamed, (await complete(plain, {})).body.choices[0]!.text);
    // Guesses refuted along the way were dropped from the sequence: extending the prompt evaluates only what was added.
    await complete(lookup, { prompt: `${PROMPT}1` });
    const next = await complete(lookup, { prompt: `${PROMPT}1;` });
    assert.ok(Number(next.headers.get("x-wisp-prompt-tokens-evaluated")) <= 3, `evaluated ${next.headers.get("x-wisp-prompt-tokens-evaluated")}`);
  });
});
