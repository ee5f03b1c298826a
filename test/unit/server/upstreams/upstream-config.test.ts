import assert from "node:assert/strict";
import { parseConfigFile, parseRateLimit, parseUpstreamFlag } from "../../../../src/server/upstreams/upstream-config";

describe("upstream configuration", () => {
  it("reads --upstream flags: the URL's /v1 added when it has no path, key-env and models", () => {
    assert.deepEqual(parseUpstreamFlag("gpu-1=http://10.0.0.5:8000"), { name: "gpu-1", baseUrl: "http://10.0.0.5:8000/v1" });
    assert.deepEqual(parseUpstreamFlag("gpu-2=https://llm.example/v1/,key-env=GPU_KEY,models=qwen-7b,qwen-coder"), {
      name: "gpu-2",
      baseUrl: "https://llm.example/v1",
      keyEnv: "GPU_KEY",
      models: ["qwen-7b", "qwen-coder"],
    });
  });

  it("refuses flags that are not what they should be, saying what is expected", () => {
    assert.throws(() => parseUpstreamFlag("http://x"), /expected NAME=URL/);
    assert.throws(() => parseUpstreamFlag("a=ftp://x"), /must start with http/);
    assert.throws(() => parseUpstreamFlag("a=http://user:secret@x/v1"), /must not hold credentials: use key-env=VAR/);
    assert.throws(() => parseUpstreamFlag("a=http://x,key=abc"), /unknown option 'key=abc' \(known: key-env=VAR, models=a,b\)/);
    assert.throws(() => parseUpstreamFlag("a=http://x,key-env=1BAD"), /not an environment variable name/);
    assert.throws(() => parseUpstreamFlag("a b=http://x"), /upstream name 'a b'/);
  });

  it("reads --rate-limit as requests and tokens per minute", () => {
    assert.deepEqual(parseRateLimit("requests=60,tokens=20000"), { requestsPerMinute: 60, tokensPerMinute: 20000 });
    assert.deepEqual(parseRateLimit("tokens=500"), { requestsPerMinute: 0, tokensPerMinute: 500 });
    assert.throws(() => parseRateLimit("requests=0"), /requests needs a positive integer/);
    assert.throws(() => parseRateLimit("rpm=5"), /expected requests=N,tokens=N/);
  });

  it("reads a config file's upstreams, rate limit and local_models", () => {
    const text = JSON.stringify({
      upstreams: [
        { name: "gpu-1", url: "http://gpu-1:8000/v1", key_env: "VLLM_KEY" },
        { name: "gpu-2", url: "http://gpu-2:8000/v1", key_env: "VLLM_KEY", models: ["qwen"] },
      ],
      rate_limit: { requests_per_minute: 120 },
      local_models: false,
    });
    assert.deepEqual(parseConfigFile(text), {
      upstreams: [
        { name: "gpu-1", baseUrl: "http://gpu-1:8000/v1", keyEnv: "VLLM_KEY" },
        { name: "gpu-2", baseUrl: "http://gpu-2:8000/v1", keyEnv: "VLLM_KEY", models: ["qwen"] },
      ],
      rateLimit: { requestsPerMinute: 120, tokensPerMinute: 0 },
      localModels: false,
    });
  });

  it("names the line and the reason of a config file's mistake", () => {
    const mistakes: [string, RegExp][] = [
      ['{\n  "upstreams": [\n    { "name": "a", "url": "http://a/v1" },\n    { "name": "b", "url": "nope" }\n  ]\n}', /line 4: upstreams\[1\]\.url 'nope' is not a URL/],
      ['{\n  "upstreams": [\n    { "name": "a", "url": "http://a/v1", "key": "sk-123" }\n  ]\n}', /line 3: upstreams\[0\]\.key is not a known setting \(known: name, url, key_env, models\)/],
      ['{\n  "upstreams": [\n    { "name": "a",\n      "url": "http://a/v1" },\n    { "name": "a", "url": "http://b/v1" }\n  ]\n}', /line 5: upstreams\[1\]\.name upstream 'a' is configured twice/],
      ['{\n  "upstreams": [\n    { "url": "http://a/v1" }\n  ]\n}', /line 3: upstreams\[0\] needs a name/],
      ['{\n  "upstreams": [],\n  "rate_limit": { "requests_per_minute": "60" }\n}', /line 3: rate_limit\.requests_per_minute must be a whole number/],
      ['{\n  "upstreams": [\n    { "name": "a", "url": "http://a/v1", }\n  ]\n}', /line 3: expected a quoted property name/],
      ['{\n  "upstreams": [\n', /line 3: unexpected end of file/],
    ];
    for (const [text, reason] of mistakes) assert.throws(() => parseConfigFile(text), reason, text);
  });
});
