import assert from "node:assert/strict";
import { WispClient } from "../../../src/client/wisp-client";
import { WispError } from "../../../src/client/wisp-error";
import { LoopbackApi, chatChunk, collect, sendJson, sseText, startSse } from "../../harness/loopback-api";

const key = "sk-base-url-0123456789";

describe("WispClient base URLs with a query or a fragment", () => {
  let api: LoopbackApi;

  beforeEach(async () => {
    api = await LoopbackApi.start();
    api.handle((req, res) => {
      if (req.method === "GET") return sendJson(res, 200, { object: "list", data: [{ id: "gpt-4o", object: "model", created: 1, owned_by: "azure" }] });
      startSse(res);
      res.end(sseText([chatChunk("hi"), chatChunk(undefined, "stop")]));
    });
  });
  afterEach(() => api.close());

  it("sends an Azure-style ?api-version with every request, after the path", async () => {
    const client = new WispClient({ baseUrl: `${api.baseUrl}?api-version=2024-10-21`, apiKey: key, timeoutMs: 2000 });
    assert.deepEqual((await client.listModels()).map((m) => m.id), ["gpt-4o"]);
    assert.equal(api.last.path, "/v1/models?api-version=2024-10-21");
    const deltas = await collect(client.streamChat({ model: "gpt-4o", messages: [{ role: "user", content: "hello" }] }));
    assert.equal(deltas.map((d) => d.content ?? "").join(""), "hi");
    assert.equal(api.last.path, "/v1/chat/completions?api-version=2024-10-21");
  });

  it("a slash before the query, and several parameters, give the same paths", async () => {
    const client = new WispClient({ baseUrl: `${api.baseUrl}/?api-version=2024-10-21&deployment=team%20a`, apiKey: key, timeoutMs: 2000 });
    await client.listModels();
    assert.equal(api.last.path, "/v1/models?api-version=2024-10-21&deployment=team%20a");
  });

  it("refuses a #fragment, saying so, without sending anything", async () => {
    const client = new WispClient({ baseUrl: `${api.baseUrl}#models`, apiKey: key, timeoutMs: 2000 });
    await assert.rejects(client.listModels(), (error: unknown) => {
      assert.ok(error instanceof WispError);
      assert.equal(error.message, `The base URL ${api.baseUrl} ends in a #fragment (#models), which no server receives. Remove it from wisp.baseUrl.`);
      return true;
    });
    assert.equal(api.requests.length, 0);
  });
});
