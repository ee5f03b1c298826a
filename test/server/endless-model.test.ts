import assert from "node:assert/strict";
import path from "node:path";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { startServer, type TestServer } from "./server-fixture";

const ENDLESS_MODEL = "wisp-tiny-endless";

// The chat tests that stop or reload in mid-answer (test/e2e/chat.test.ts, test/vscode/chat.test.ts)
// rely on it: with a model that may end an answer after a few tokens there is nothing left to stop.
describe("an endless generated model (gen-models --endless)", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ prepare: (modelsDir) => writeTinyLlamaGguf(path.join(modelsDir, `${ENDLESS_MODEL}.gguf`), "tiny", { endless: true }) });
  });
  after(() => server.close());

  it("runs every answer to max_tokens, whatever the temperature", async () => {
    for (const temperature of [0.2, 1, 2]) {
      const response = await server.fetch("/v1/chat/completions", {
        json: { model: ENDLESS_MODEL, messages: [{ role: "user", content: `Tell me more (${temperature}).` }], temperature, max_tokens: 300, n: 8 },
      });
      assert.equal(response.status, 200, await response.clone().text());
      const body = (await response.json()) as { choices: { finish_reason: string }[]; usage: { completion_tokens: number } };
      assert.deepEqual(body.choices.map((c) => c.finish_reason), Array(8).fill("length"), `temperature ${temperature}`);
      assert.equal(body.usage.completion_tokens, 8 * 300);
    }
  });
});
