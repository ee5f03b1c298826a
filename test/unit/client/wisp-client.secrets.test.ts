import assert from "node:assert/strict";
import { WispClient } from "../../../src/client/wisp-client";
import { LoopbackApi, collect, completionChunk, errorBody, sendJson, sseText, startSse } from "../../harness/loopback-api";

const key = "sk-never-print-me-7f3a";
const consoleMethods = ["log", "info", "warn", "error", "debug"] as const;

describe("WispClient secrecy", () => {
  let api: LoopbackApi;
  const printed: string[] = [];
  const saved = new Map<string, unknown>();
  const env = { OPENAI_LOG: "debug", OPENAI_ORG_ID: "org-from-env", OPENAI_PROJECT_ID: "proj-from-env" };

  beforeEach(async () => {
    api = await LoopbackApi.start();
    // The seam: console, where the SDK would print when its log level (OPENAI_LOG) asks for it.
    for (const method of consoleMethods) {
      saved.set(method, console[method]);
      console[method] = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
    }
    for (const [name, value] of Object.entries(env)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });

  afterEach(async () => {
    for (const method of consoleMethods) console[method] = saved.get(method) as (typeof console)[typeof method];
    for (const name of Object.keys(env)) {
      const value = saved.get(name) as string | undefined;
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    printed.length = 0;
    await api.close();
  });

  it("prints nothing, and sends no OPENAI_* identity from the environment, even with OPENAI_LOG=debug", async () => {
    api.handle((req, res) => {
      if (req.path.endsWith("/models")) return sendJson(res, 500, errorBody("boom", "server_error"));
      startSse(res);
      res.end(`${sseText([completionChunk("ok")], "\n", false)}data: {broken\n\n`);
    });
    const client = new WispClient({ baseUrl: api.baseUrl, apiKey: key });

    await assert.rejects(client.listModels());
    await assert.rejects(collect(client.streamCompletion({ model: "tiny", prompt: "secret prompt" })));

    assert.deepEqual(printed, []);
    for (const request of api.requests) {
      assert.equal(request.headers["openai-organization"], undefined);
      assert.equal(request.headers["openai-project"], undefined);
    }
  });
});
