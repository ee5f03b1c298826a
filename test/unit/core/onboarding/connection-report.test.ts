import assert from "node:assert/strict";
import type { ModelInfo } from "../../../../src/core/api/models";
import { connectionReport } from "../../../../src/core/onboarding/connection-report";

const baseUrl = "http://127.0.0.1:9/v1";
const model = (id: string, kind?: string): ModelInfo => ({ id, object: "model", created: 0, owned_by: "x", ...(kind ? { kind } : {}) });

describe("connectionReport: a connection test, said plainly", () => {
  it("nothing answers", () => {
    const report = connectionReport({ baseUrl, models: { failed: { kind: "unreachable", message: "Connection refused (ECONNREFUSED)." } } });
    assert.deepEqual(report.problems, ["unreachable"]);
    assert.equal(report.answers, false);
    assert.equal(report.headline, "Nothing answers at http://127.0.0.1:9/v1: is the server running, and is this its address?");
    assert.deepEqual(report.lines.slice(1), ["Connection refused (ECONNREFUSED)."], "the client's own words follow");
  });

  it("the key is refused", () => {
    const report = connectionReport({ baseUrl, models: { failed: { kind: "bad-key", status: 401, message: "rejected" } } });
    assert.deepEqual(report.problems, ["bad-key"]);
    assert.match(report.headline, /refused the key \(401 Unauthorized\)/);
  });

  it("no chat model: only image models listed", () => {
    const report = connectionReport({ baseUrl, models: { listed: [model("sd-turbo", "image")] } });
    assert.deepEqual(report.problems, ["no-chat-model", "no-fim"]);
    assert.equal(report.answers, true);
    assert.match(report.headline, /^No chat model: the server lists only image models/);
    assert.ok(report.lines.includes("Models (1): sd-turbo."));
  });

  it("no chat model: the model listed refuses chat requests", () => {
    const report = connectionReport({
      baseUrl,
      models: { listed: [model("embedder")] },
      chat: { model: "embedder", failed: { kind: "bad-request", status: 400, message: "embedder is not a chat model" } },
      fim: { model: "embedder" },
    });
    assert.deepEqual(report.problems, ["no-chat-model"]);
    assert.match(report.headline, /No chat model: embedder did not answer a chat request \(embedder is not a chat model\)/);
  });

  it("no FIM: the server has no /v1/completions", () => {
    const report = connectionReport({
      baseUrl,
      models: { listed: [model("chat-model")] },
      chat: { model: "chat-model" },
      fim: { model: "chat-model", failed: { kind: "unreachable", status: 404, message: "no such endpoint (404)" } },
    });
    assert.deepEqual(report.problems, ["no-fim"]);
    assert.equal(report.chatModel, "chat-model");
    assert.match(report.headline, /^No FIM: the server has no \/v1\/completions endpoint, so no ghost text/);
  });

  it("all good: names the models for chat and ghost text", () => {
    const report = connectionReport({ baseUrl, models: { listed: [model("coder"), model("chat")] }, chat: { model: "chat" }, fim: { model: "coder" } });
    assert.equal(report.ok, true);
    assert.equal(report.headline, `Connected to ${baseUrl}: chat answers in the chat, coder writes ghost text.`);
    assert.deepEqual(report.lines, [`${baseUrl} answers and accepts the key.`, "Models (2): coder, chat.", "Chat: chat answers.", "Ghost text: coder fills in the middle."]);
  });
});
