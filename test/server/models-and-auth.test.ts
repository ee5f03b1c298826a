import assert from "node:assert/strict";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { createOpenApiValidator } from "../helpers/openapi";
import { parseCommand } from "../../src/server/cli-args";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/** The version the server reports: the repository's package.json's. */
const packageVersion = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

const openapi = createOpenApiValidator();

describe("GET /v1/models and API keys", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("lists the generated default model in the ListModelsResponse shape", async () => {
    const list = await server.client.models.list();
    const body = await (await server.fetch("/v1/models")).json();
    openapi.assertValid("ListModelsResponse", body);
    assert.ok(list.data.some((m) => m.id === TEXT_MODEL && m.object === "model"));
    assert.deepEqual(list.data.map((m) => m.id), (body as { data: { id: string }[] }).data.map((m) => m.id));
  });

  it("answers GET /v1/models/{id} (models.retrieve) with the listed Model, or 404 model_not_found", async () => {
    const model = await server.client.models.retrieve(TEXT_MODEL);
    const listed = (await server.client.models.list()).data.find((m) => m.id === TEXT_MODEL);
    assert.deepEqual(model, listed);
    const missing = await server.fetch("/v1/models/no-such-model");
    assert.equal(missing.status, 404);
    const body = (await missing.json()) as { error: { type: string; param: string; code: string } };
    assert.deepEqual([body.error.type, body.error.param, body.error.code], ["invalid_request_error", "model", "model_not_found"]);
    await assert.rejects(server.client.models.retrieve("no-such-model"), OpenAI.NotFoundError);
    // Behind the same keys as the list.
    assert.equal((await fetch(`${server.baseURL}/models/${TEXT_MODEL}`)).status, 401);
  });

  it("gives the openai SDK the request's id (x-request-id, as OpenAI sends it), on answers and on errors, the same as x-wisp-request-id", async () => {
    const { response, request_id } = await server.client.models.list().withResponse();
    assert.match(request_id ?? "", /\S/, "the SDK's request_id");
    assert.equal(request_id, response.headers.get("x-wisp-request-id"));
    const error = await server.client.models.retrieve("no-such-model").then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OpenAI.NotFoundError);
    assert.match(error.requestID ?? "", /\S/, "an error's requestID, the one to quote in a report");
    assert.notEqual(error.requestID, request_id);
    // A path the server lacks (LangChain's embeddings) and a wrong method carry one too.
    const unsupported = await server.client.embeddings.create({ model: "wisp-tiny", input: "hi" }).then(() => undefined, (e: unknown) => e);
    assert.ok(unsupported instanceof OpenAI.NotFoundError);
    assert.match(unsupported.requestID ?? "", /\S/, "a 404 for an API the server does not implement");
    const wrongMethod = await server.fetch("/v1/chat/completions");
    assert.equal(wrongMethod.status, 405);
    assert.match(wrongMethod.headers.get("x-request-id") ?? "", /\S/, "a 405");
  });

  it("says each text model's context window: its trained length capped by --ctx-size", async () => {
    const body = (await (await server.fetch("/v1/models")).json()) as { data: { id: string; kind: string; context_length?: number }[] };
    const text = body.data.find((m) => m.id === TEXT_MODEL);
    // The fixture serves with --ctx-size 2048; the tiny model was trained for 8192.
    assert.equal(text?.context_length, 2048);
    assert.ok(body.data.filter((m) => m.kind === "image").every((m) => m.context_length === undefined));
    const wide = await startServer({ contextSize: 16384 });
    after(() => wide.close());
    const wideBody = (await (await wide.fetch("/v1/models")).json()) as { data: { id: string; context_length?: number }[] };
    assert.equal(wideBody.data.find((m) => m.id === TEXT_MODEL)?.context_length, 8192);
    // What it says is what the engine enforces: a prompt of that many tokens is refused.
    const refused = await server.fetch("/v1/chat/completions", { json: { model: TEXT_MODEL, messages: [{ role: "user", content: "word ".repeat(2100) }], max_tokens: 1 } });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /maximum context length is 2048 tokens/);
  });

  it("says which text models it fills in the middle for with the model's own tokens", async () => {
    const body = (await (await server.fetch("/v1/models")).json()) as { data: { id: string; kind: string; fim?: boolean }[] };
    assert.equal(body.data.find((m) => m.id === TEXT_MODEL)?.fim, true);
    assert.ok(body.data.filter((m) => m.kind === "image").every((m) => m.fim === undefined));
  });

  it("finds models added while running: GGUF files (text) and ONNX pipeline folders (image)", async () => {
    const own = await startServer();
    after(() => own.close());
    const modelsDir = own.deps.config.modelsDir;
    await writeTinyLlamaGguf(path.join(modelsDir, "added.gguf"), "tiny");
    for (const part of ["text_encoder", "unet", "vae_decoder"]) {
      await mkdir(path.join(modelsDir, "pictures", part), { recursive: true });
      await writeFile(path.join(modelsDir, "pictures", part, "model.onnx"), "");
    }
    const body = (await (await own.fetch("/v1/models")).json()) as { data: { id: string; kind: string }[] };
    openapi.assertValid("ListModelsResponse", body);
    const kinds = new Map(body.data.map((m) => [m.id, m.kind]));
    assert.equal(kinds.get("added"), "text");
    assert.equal(kinds.get("pictures"), "image");
    assert.equal(kinds.get(TEXT_MODEL), "text");
    const completion = await own.client.completions.create({ model: "added", prompt: "hi", max_tokens: 2 });
    assert.equal(completion.model, "added");
  });

  it("a model file that cannot be loaded (not a GGUF, one cut short) is named with why and what to do, in the answer and the server's log", async () => {
    const lines: string[] = [];
    const own = await startServer({ log: (line) => lines.push(line) });
    try {
      const modelsDir = own.deps.config.modelsDir;
      await writeFile(path.join(modelsDir, "renamed.gguf"), "PK\u0003\u0004 a zip file, not a model".repeat(20));
      // A copy or download interrupted halfway: the header is whole, the weights are not.
      const whole = await readFile(path.join(modelsDir, `${TEXT_MODEL}.gguf`));
      await writeFile(path.join(modelsDir, "halfway.gguf"), whole.subarray(0, Math.floor(whole.length / 2)));
      for (const [model, reason] of [["renamed", /it is not a GGUF file/], ["halfway", /llama\.cpp refused it/]] as const) {
        const response = await own.fetch("/v1/completions", { json: { model, prompt: "hi", max_tokens: 2 } });
        assert.equal(response.status, 500);
        const { error } = (await response.json()) as { error: { message: string; code: string } };
        assert.equal(error.code, "model_load_failed");
        assert.ok(error.message.startsWith(`model ${model} could not be loaded from ${path.join(modelsDir, `${model}.gguf`)}: `), error.message);
        assert.match(error.message, reason);
        assert.match(error.message, /remove it from the models folder/);
        assert.ok(lines.some((line) => line.startsWith(`POST /v1/completions failed: model ${model} could not be loaded`)), lines.join("\n"));
      }
      // Streamed, the same answer comes before any event.
      const streamed = await own.fetch("/v1/chat/completions", { json: { model: "renamed", stream: true, messages: [{ role: "user", content: "hi" }] } });
      assert.equal(streamed.status, 500);
      assert.match(((await streamed.json()) as { error: { message: string } }).error.message, /model renamed could not be loaded/);
    } finally {
      await own.close();
    }
  });

  it("rejects missing, malformed and unknown keys with 401 and the OpenAI error body", async () => {
    for (const authorization of [undefined, "Basic abc", "Bearer", "Bearer wisp-not-a-real-key"]) {
      const response = await fetch(`${server.baseURL}/models`, { headers: authorization ? { authorization } : {} });
      assert.equal(response.status, 401, String(authorization));
      const body = (await response.json()) as { error: { type: string; param: null; message: string } };
      assert.equal(body.error.type, "authentication_error");
      assert.equal(body.error.param, null);
    }
    const wrong = new OpenAI({ baseURL: server.baseURL, apiKey: "wisp-wrong", maxRetries: 0 });
    await assert.rejects(wrong.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "hi" }] }), OpenAI.AuthenticationError);
  });

  it("a key sent in Azure's api-key or Anthropic's x-api-key header: the 401 names that header and says to send Authorization, never repeating the key", async () => {
    for (const name of ["api-key", "x-api-key"]) {
      const response = await fetch(`${server.baseURL}/models`, { headers: { [name]: server.key } });
      assert.equal(response.status, 401, name);
      const body = (await response.json()) as { error: { type: string; code: string; message: string } };
      assert.equal(body.error.code, "missing_api_key");
      assert.match(body.error.message, new RegExp(`the ${name} header, .*Authorization: Bearer <key>`));
      assert.ok(!body.error.message.includes(server.key), body.error.message);
    }
  });

  it("asks the key store once for an unknown key a client keeps retrying, and a key created then works at once", async () => {
    const keys = server.deps.keys;
    const verify = keys.verify.bind(keys);
    let lookups = 0;
    keys.verify = (secret) => (lookups++, verify(secret));
    try {
      const stale = new OpenAI({ baseURL: server.baseURL, apiKey: "wisp-left-in-a-setting", maxRetries: 0 });
      for (let i = 0; i < 20; i++) await assert.rejects(stale.models.list(), OpenAI.AuthenticationError);
      assert.equal(lookups, 1, "one lookup (a database query in team mode) for 20 refusals");
      const { secret } = await keys.create("made-after");
      const fresh = new OpenAI({ baseURL: server.baseURL, apiKey: secret, maxRetries: 0 });
      assert.ok((await fresh.models.list()).data.length > 0);
    } finally {
      keys.verify = verify;
    }
  });

  it("stores keys hashed in an owner-only file, and a revoked key stops working at once", async () => {
    const { key, secret } = await server.deps.keys.create("second");
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: secret, maxRetries: 0 });
    assert.ok((await client.models.list()).data.some((m) => m.id === TEXT_MODEL));
    const keysFile = path.join(server.deps.config.dataDir, "keys.json");
    const info = await stat(keysFile);
    assert.equal(info.mode & 0o777, 0o600);
    assert.ok(!(await readFile(keysFile, "utf8")).includes(secret));
    assert.ok(await server.deps.keys.revoke(key.id));
    await assert.rejects(client.models.list(), OpenAI.AuthenticationError);
  });

  it("answers health and metrics without a key, exposing no secrets", async () => {
    const metrics = (await (await fetch(`${server.origin}/metrics.json`)).json()) as Record<string, unknown>;
    assert.equal(typeof metrics.promptTokensEvaluated, "number");
    assert.deepEqual(metrics.images, { running: 0, waiting: 0 }, "no image generation has run");
    assert.ok(!JSON.stringify(metrics).includes(server.key));
    assert.deepEqual(await (await fetch(`${server.origin}/health`)).json(), { status: "ok", version: packageVersion });
  });

  it("says its version in /health and as wisp_build_info in /metrics: replicas of a rolling upgrade, and another window's server, are told apart", async () => {
    assert.match(packageVersion, /^\d+\.\d+\.\d+/);
    const metrics = await (await fetch(`${server.origin}/metrics`)).text();
    assert.ok(metrics.includes(`wisp_build_info{version="${packageVersion}"} 1`), metrics.split("\n").filter((l) => l.includes("build_info")).join("\n"));
  });

  it("names in /health the launch its starter gave it (WISP_LAUNCH_ID): an editor tells its own server from another window's on the port", async () => {
    const command = parseCommand([], { WISP_LAUNCH_ID: "window-b" });
    assert.ok(command.kind === "serve");
    const launched = await startServer({ launchId: command.config.launchId });
    try {
      assert.deepEqual(await (await fetch(`${launched.origin}/health`)).json(), { status: "ok", version: packageVersion, launch: "window-b" });
    } finally {
      await launched.app.close();
    }
  });
});
