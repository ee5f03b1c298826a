import assert from "node:assert/strict";
import { WispClient } from "../../../src/client/wisp-client";
import { WispError } from "../../../src/client/wisp-error";
import { LoopbackApi, sendJson } from "../../harness/loopback-api";

const key = "sk-models-images-42";
// The 8-byte PNG signature and a JPEG start: any bytes do, they must arrive unchanged.
const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255);
const jpg = Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe("WispClient models and images", () => {
  let api: LoopbackApi;
  let client: WispClient;

  beforeEach(async () => {
    api = await LoopbackApi.start();
    // A trailing slash in the setting must not double up in the paths.
    client = new WispClient({ baseUrl: `${api.baseUrl}/`, apiKey: key, timeoutMs: 2000 });
  });
  afterEach(() => api.close());

  it("lists models with GET /v1/models and the bearer key", async () => {
    api.handle((_req, res) =>
      sendJson(res, 200, {
        object: "list",
        data: [
          { id: "tiny-coder", object: "model", created: 1700000000, owned_by: "wisp" },
          { id: "tiny-sd", object: "model", created: 1700000001, owned_by: "wisp" },
        ],
      }),
    );
    const models = await client.listModels();
    assert.deepEqual(models, [
      { id: "tiny-coder", object: "model", created: 1700000000, owned_by: "wisp" },
      { id: "tiny-sd", object: "model", created: 1700000001, owned_by: "wisp" },
    ]);
    assert.equal(api.last.method, "GET");
    assert.equal(api.last.path, "/v1/models");
    assert.equal(api.last.headers.authorization, `Bearer ${key}`);
  });

  it("accepts a model list from servers that omit created and owned_by", async () => {
    api.handle((_req, res) => sendJson(res, 200, { object: "list", data: [{ id: "llama3" }] }));
    assert.deepEqual(await client.listModels(), [{ id: "llama3", object: "model", created: 0, owned_by: "" }]);
  });

  it("reads Ollama's list with no model pulled yet (data: null) as no models", async () => {
    api.handle((_req, res) => sendJson(res, 200, { object: "list", data: null }));
    assert.deepEqual(await client.listModels(), []);
  });

  it("reads each model's context window the way servers report it (Wisp and hosted, vLLM, llama.cpp)", async () => {
    api.handle((_req, res) =>
      sendJson(res, 200, {
        object: "list",
        data: [
          { id: "wisp", kind: "text", context_length: 4096 },
          { id: "vllm", max_model_len: 32768 },
          { id: "llama.cpp", meta: { n_ctx_train: 8192, n_vocab: 151936 } },
          { id: "silent" },
          { id: "odd", context_length: "big" },
        ],
      }),
    );
    const lengths = (await client.listModels()).map((m) => [m.id, m.context_length]);
    assert.deepEqual(lengths, [["wisp", 4096], ["vllm", 32768], ["llama.cpp", 8192], ["silent", undefined], ["odd", undefined]]);
  });

  it("keeps whether the server fills in the middle with the model's own tokens, where it says", async () => {
    api.handle((_req, res) => sendJson(res, 200, { object: "list", data: [{ id: "a", fim: true }, { id: "b", fim: false }, { id: "c" }, { id: "d", fim: "yes" }] }));
    assert.deepEqual((await client.listModels()).map((m) => [m.id, m.fim]), [["a", true], ["b", false], ["c", undefined], ["d", undefined]]);
  });

  it("keeps whether a model takes tools where the server lists its parameters (OpenRouter's supported_parameters)", async () => {
    api.handle((_req, res) => sendJson(res, 200, { object: "list", data: [{ id: "a", supported_parameters: ["tools", "tool_choice"] }, { id: "b", supported_parameters: ["temperature"] }, { id: "c" }] }));
    assert.deepEqual((await client.listModels()).map((m) => [m.id, m.tools]), [["a", true], ["b", false], ["c", undefined]]);
  });

  for (const [name, body] of [
    ["a list without data", { object: "list" }],
    ["a model without id", { object: "list", data: [{ object: "model" }] }],
    ["a body that is not an object", ["tiny"]],
  ] as const) {
    it(`reports ${name} as malformed`, async () => {
      api.handle((_req, res) => sendJson(res, 200, body));
      await assert.rejects(client.listModels(), (e: unknown) => e instanceof WispError && e.kind === "malformed");
    });
  }

  it("generates images: sends the extra fields, asks for b64_json, decodes the bytes", async () => {
    api.handle((_req, res) =>
      sendJson(res, 200, { created: 1, seed: 1234, data: [{ b64_json: b64(png) }, { b64_json: b64(jpg) }] }),
    );
    const request = {
      model: "tiny-sd",
      prompt: "a lighthouse at dusk",
      negative_prompt: "blurry",
      width: 256,
      height: 192,
      num_inference_steps: 4,
      seed: -1,
      response_extension: "png" as const,
      n: 2,
    };
    const result = await client.generateImage(request);

    assert.deepEqual(result.images.map((i) => Array.from(i)), [Array.from(png), Array.from(jpg)]);
    assert.ok(result.images.every((i) => i instanceof Uint8Array));
    assert.equal(result.seed, 1234);
    assert.deepEqual(result.seeds, [1234, 1235], "image i is made with seed + i");
    assert.equal(api.last.path, "/v1/images/generations");
    assert.equal(api.last.headers.authorization, `Bearer ${key}`);
    assert.deepEqual(JSON.parse(api.last.body), { ...request, response_format: "b64_json" });
  });

  it("reads each image's own seed, else Wisp's x-wisp-seed header plus the index, else none", async () => {
    api.handle((_req, res) =>
      sendJson(res, 200, { created: 1, data: [{ b64_json: b64(png), seed: 77 }, { b64_json: b64(jpg), seed: 12 }] }, { "x-wisp-seed": "5" }),
    );
    assert.deepEqual((await client.generateImage({ model: "tiny-sd", prompt: "x", n: 2 })).seeds, [77, 12]);

    api.handle((_req, res) => sendJson(res, 200, { created: 1, data: [{ b64_json: b64(png) }, { b64_json: b64(jpg) }] }, { "x-wisp-seed": "40" }));
    const fromHeader = await client.generateImage({ model: "tiny-sd", prompt: "x", n: 2 });
    assert.deepEqual(fromHeader.seeds, [40, 41]);
    assert.equal(fromHeader.seed, 40);

    api.handle((_req, res) => sendJson(res, 200, { created: 1, data: [{ b64_json: b64(png), seed: -1 }] }, { "x-wisp-seed": "not a seed" }));
    const unknown = await client.generateImage({ model: "tiny-sd", prompt: "x" });
    assert.deepEqual(unknown.seeds, [undefined]);
    assert.equal(unknown.seed, undefined);
  });

  it("keeps the field and code a refused image request names", async () => {
    api.handle((_req, res) =>
      sendJson(res, 400, { error: { message: "model 'coder' is a text model", type: "invalid_request_error", param: "model", code: "wrong_model_kind" } }),
    );
    await assert.rejects(client.generateImage({ model: "coder", prompt: "x" }), (e: unknown) => {
      assert.ok(e instanceof WispError);
      assert.equal(e.kind, "bad-request");
      assert.equal(e.param, "model");
      assert.equal(e.code, "wrong_model_kind");
      assert.match(e.message, /is a text model/);
      return true;
    });
  });

  it("reports an image answer with URLs instead of b64_json as malformed", async () => {
    api.handle((_req, res) => sendJson(res, 200, { created: 1, data: [{ url: "http://example.invalid/x.png" }] }));
    await assert.rejects(client.generateImage({ model: "tiny-sd", prompt: "x" }), (e: unknown) => {
      assert.ok(e instanceof WispError);
      assert.equal(e.kind, "malformed");
      assert.match(e.message, /b64_json/);
      return true;
    });
  });

  it("reports an image whose base64 is no image (cut, or another file) as malformed, so nothing broken is saved", async () => {
    const cutPng = png.subarray(0, 4);
    for (const bytes of [cutPng, new TextEncoder().encode("<html>error</html>")]) {
      api.handle((_req, res) => sendJson(res, 200, { created: 1, data: [{ b64_json: b64(bytes) }] }));
      await assert.rejects(client.generateImage({ model: "tiny-sd", prompt: "x" }), (e: unknown) => {
        assert.ok(e instanceof WispError);
        assert.equal(e.kind, "malformed");
        assert.match(e.message, /no PNG, JPEG or WebP file/);
        return true;
      });
    }
    const webp = Uint8Array.of(0x52, 0x49, 0x46, 0x46, 4, 0, 0, 0, 0x57, 0x45, 0x42, 0x50);
    api.handle((_req, res) => sendJson(res, 200, { created: 1, data: [{ b64_json: b64(webp) }] }));
    assert.deepEqual((await client.generateImage({ model: "tiny-sd", prompt: "x" })).images, [webp]);
  });

  it("maps a 404 for an unknown image model to unknown-model", async () => {
    api.handle((_req, res) =>
      sendJson(res, 404, { error: { message: "no such model", type: "invalid_request_error", param: "model", code: null } }),
    );
    await assert.rejects(
      client.generateImage({ model: "sd-missing", prompt: "x" }),
      (e: unknown) => e instanceof WispError && e.kind === "unknown-model" && e.message.includes('"sd-missing"'),
    );
  });
});
