import assert from "node:assert/strict";
import path from "node:path";
import { startLlamaServer, type LlamaServer } from "../../bench/engine/llama-server";
import { readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const binary = process.env.LLAMA_SERVER;

type Chunk = { choices?: { delta?: { content?: string }; text?: string }[]; usage?: object | null; error?: { message: string } };
/** What a client reads from a stream: its text, and any error event (llama-server sends one when its chat parser fails on the random-weight model's output). */
const textOf = (events: unknown[]) =>
  (events.filter((e) => e !== "[DONE]") as Chunk[]).map((e) => (e.error ? `[error: ${e.error.message}]` : (e.choices ?? []).map((c) => c.delta?.content ?? c.text ?? "").join(""))).join("");

if (!binary) {
  // Not a skipped test: the suite has no llama-server to run against, and says so.
  console.log("upstream llama-server: not run here, because LLAMA_SERVER does not name a llama-server binary (see docs/development.md, the server suite)");
} else {
  describe("llama.cpp's llama-server as an upstream", function () {
    this.timeout(120_000);
    let local: TestServer;
    let llama: LlamaServer;
    let gateway: TestServer;
    let model: string;
    before(async () => {
      // A wisp-server makes the generated model; llama-server serves the same file.
      local = await startServer();
      llama = await startLlamaServer(binary, path.join(local.dir, "models", `${TEXT_MODEL}.gguf`), { threads: 1, contextSize: 2048 });
      gateway = await startServer({ localModels: false, upstreams: [{ name: "llama", baseUrl: llama.baseUrl }] });
      const listed = (await (await fetch(`${llama.baseUrl}/models`)).json()) as { data: { id: string }[] };
      model = listed.data[0]!.id;
    });
    after(async () => {
      await gateway?.close();
      await llama?.stop();
      await local?.close();
    });
    const direct = (pathName: string, body: object) => fetch(`${llama.baseUrl}${pathName}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    it("lists llama-server's model as owned by the upstream", async () => {
      const listed = (await (await gateway.fetch("/v1/models")).json()) as { data: { id: string; owned_by: string }[] };
      assert.deepEqual(listed.data.map((m) => [m.id, m.owned_by]), [[model, "llama"]]);
    });

    it("streams chat and a completion with a suffix through with llama-server's exact text, error events and usage", async () => {
      const chat = { model, messages: [{ role: "user", content: "Hello." }], max_tokens: 12, temperature: 0, seed: 3, stream: true };
      const chatThrough = await readSse(await gateway.fetch("/v1/chat/completions", { json: chat }));
      const chatDirect = await readSse(await direct("/chat/completions", chat));
      assert.equal(textOf(chatThrough), textOf(chatDirect));
      assert.equal(chatThrough.length, chatDirect.length);
      const fim = { model, prompt: "def add(a, b):\n    return ", suffix: "\n\nprint(add(1, 2))\n", max_tokens: 10, temperature: 0, seed: 3, stream: true, stream_options: { include_usage: true } };
      const fimThrough = await readSse(await gateway.fetch("/v1/completions", { json: fim }));
      const fimDirect = await readSse(await direct("/completions", fim));
      assert.equal(textOf(fimThrough), textOf(fimDirect));
      assert.ok(textOf(fimThrough).length > 0);
      const usage = (events: unknown[]) => (events as Chunk[]).find((e) => e.usage)?.usage;
      assert.deepEqual(usage(fimThrough), usage(fimDirect));
    });

    it("passes llama-server's errors on in the OpenAI shape, naming it", async () => {
      const response = await gateway.fetch("/v1/chat/completions", { json: { model, messages: "not a list" } });
      assert.ok(response.status >= 400 && response.status < 600, String(response.status));
      const { error } = (await response.json()) as { error: { message: string; type: string } };
      assert.match(error.message, /^upstream llama: /);
    });
  });
}
