import assert from "node:assert/strict";
import OpenAI from "openai";
import { TEXT_MODEL } from "./server-fixture";
import { gatewayForSuite } from "./upstream-fixture";

describe("per-key rate limits on upstream models", function () {
  this.timeout(120_000);
  const current = gatewayForSuite(["a"], { rateLimit: { requestsPerMinute: 3, tokensPerMinute: 60 } });
  const clientFor = async (name: string) => {
    const { secret } = await current().gateway.deps.keys.create(name);
    return { secret, client: new OpenAI({ baseURL: current().gateway.baseURL, apiKey: secret, maxRetries: 0 }) };
  };
  const post = (secret: string, body: object) =>
    fetch(`${current().gateway.baseURL}/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: TEXT_MODEL, ...body }) });

  it("answers 429 with Retry-After once a key made its requests of the minute, other keys unaffected", async () => {
    const busy = await clientFor("busy");
    for (let i = 0; i < 3; i++) await busy.client.completions.create({ model: TEXT_MODEL, prompt: "hi", max_tokens: 1 });
    const refused = await post(busy.secret, { prompt: "hi", max_tokens: 1 });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const { error } = (await refused.json()) as { error: { message: string; type: string; code: string } };
    assert.match(error.message, /rate limit of key key_\w+ reached \(3 requests per minute\): retry in \d+ s/);
    assert.deepEqual([error.type, error.code], ["rate_limit_error", "rate_limit_exceeded"]);
    const other = await clientFor("other");
    assert.equal((await other.client.completions.create({ model: TEXT_MODEL, prompt: "hi", max_tokens: 1 })).choices.length, 1);
  });

  it("answers 429 once the tokens the upstream reported for a key reach its tokens per minute", async () => {
    const heavy = await clientFor("heavy");
    const first = await heavy.client.completions.create({ model: TEXT_MODEL, prompt: "a long answer", max_tokens: 60 });
    assert.ok(first.usage!.total_tokens >= 60);
    const refused = await post(heavy.secret, { prompt: "more", max_tokens: 1, stream: true });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /\(60 tokens per minute\)/);
  });
});
