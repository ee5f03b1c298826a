import assert from "node:assert/strict";
import OpenAI from "openai";
import { neverEnd, startServer, TEXT_MODEL } from "./server-fixture";
import { gatewayForSuite } from "./upstream-fixture";

// Its own models too, so the upstream's model of the same name is listed as a/wisp-tiny.
const UPSTREAM_MODEL = `a/${TEXT_MODEL}`;

describe("a gateway with its own models beside one upstream: names, models=, per-key rate limits", function () {
  this.timeout(120_000);
  // Only the upstream's text model, as `models=wisp-tiny` asks.
  const current = gatewayForSuite(["a"], { localModels: true, rateLimit: { requestsPerMinute: 3, tokensPerMinute: 60 } }, [TEXT_MODEL]);
  const clientFor = async (name: string) => {
    const { secret } = await current().gateway.deps.keys.create(name);
    return { secret, client: new OpenAI({ baseURL: current().gateway.baseURL, apiKey: secret, maxRetries: 0 }) };
  };
  const post = (secret: string, body: object) =>
    fetch(`${current().gateway.baseURL}/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: UPSTREAM_MODEL, ...body }) });

  it("lists the upstream's model as a/wisp-tiny beside the local one, and only the models= it names", async () => {
    const listed = (await (await current().gateway.fetch("/v1/models")).json()) as { data: { id: string; owned_by: string }[] };
    assert.deepEqual(listed.data.map((m) => [m.id, m.owned_by]), [["wisp-tiny-diffusion", "wisp"], [TEXT_MODEL, "wisp"], [UPSTREAM_MODEL, "a"]]);
    const answer = await current().gateway.fetch("/v1/completions", { json: { model: UPSTREAM_MODEL, prompt: "hi", max_tokens: 2 } });
    assert.equal(answer.headers.get("x-wisp-upstream"), "a");
    assert.equal(((await answer.json()) as { model: string }).model, TEXT_MODEL, "the upstream was asked for its own name");
    const local = await current().gateway.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "hi", max_tokens: 2 } });
    assert.equal(local.headers.get("x-wisp-upstream"), null);
  });

  it("answers 429 with Retry-After once a key made its requests of the minute, other keys unaffected", async () => {
    const busy = await clientFor("busy");
    for (let i = 0; i < 3; i++) await busy.client.completions.create({ model: UPSTREAM_MODEL, prompt: "hi", max_tokens: 1 });
    const refused = await post(busy.secret, { prompt: "hi", max_tokens: 1 });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const { error } = (await refused.json()) as { error: { message: string; type: string; code: string } };
    assert.match(error.message, /rate limit of key key_\w+ reached \(3 requests per minute\): retry in \d+ s/);
    assert.deepEqual([error.type, error.code], ["rate_limit_error", "rate_limit_exceeded"]);
    const other = await clientFor("other");
    assert.equal((await other.client.completions.create({ model: UPSTREAM_MODEL, prompt: "hi", max_tokens: 1 })).choices.length, 1);
  });

  it("answers 429 once the tokens the upstream reported for a key reach its tokens per minute", async () => {
    const heavy = await clientFor("heavy");
    // Never ending early: exactly 60 tokens are made.
    const logitBias = await neverEnd(current().upstreams.a!);
    const first = await heavy.client.completions.create({ model: UPSTREAM_MODEL, prompt: "a long answer", max_tokens: 60, logit_bias: logitBias });
    assert.equal(first.usage!.completion_tokens, 60);
    const refused = await post(heavy.secret, { prompt: "more", max_tokens: 1, stream: true });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /\(60 tokens per minute\)/);
  });
});

describe("an upstream's own 429 through a gateway", function () {
  this.timeout(120_000);

  it("passes the upstream's Retry-After on, so a client waits as long as the upstream asked", async () => {
    const upstream = await startServer({ rateLimit: { requestsPerMinute: 1, tokensPerMinute: 0 } });
    const gateway = await startServer({
      localModels: false,
      upstreams: [{ name: "limited", baseUrl: upstream.baseURL, keyEnv: "UPSTREAM_LIMITED_KEY" }],
      env: { UPSTREAM_LIMITED_KEY: upstream.key },
      upstreamTiming: { refreshMs: 2_000, backoffMs: 50, checkTimeoutMs: 2_000 },
    });
    try {
      const ask = () => gateway.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "hi", max_tokens: 1 } });
      assert.equal((await ask()).status, 200);
      const refused = await ask();
      assert.equal(refused.status, 429);
      const { error } = (await refused.json()) as { error: { message: string } };
      assert.match(error.message, /^upstream limited: rate limit of key key_\w+ reached \(1 requests per minute\): retry in (\d+) s/);
      const said = Number(/retry in (\d+) s/.exec(error.message)![1]);
      const retryAfter = Number(refused.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && Math.abs(retryAfter - said) <= 1, `Retry-After ${refused.headers.get("retry-after")}, the upstream said ${said} s`);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
