import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { buildApp } from "../../src/server/app";
import { DatabaseHealth } from "../../src/server/store/postgres/database-health";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { PgUsage } from "../../src/server/store/postgres/pg-usage";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { TempDirs } from "../harness/temp-dirs";
import { waitFor } from "../harness/wait-for";
import { freshDatabase } from "./support/shared-cluster";

/** An OpenAI-style engine whose `usage.prompt_tokens` is the request's message, as JSON text (3.5, "12", 1e400). */
async function badUsageEngine(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === "/v1/models") return void response.end(JSON.stringify({ object: "list", data: [{ id: "fake", object: "model", created: 1, owned_by: "test" }] }));
    let body = "";
    request.on("data", (d: Buffer) => (body += d.toString()));
    request.on("end", () => {
      const parsed = JSON.parse(body) as { stream?: boolean; messages: { content: string }[] };
      const usage = `{"prompt_tokens":${parsed.messages[0]!.content},"completion_tokens":2}`;
      const base = '"id":"c1","created":1,"model":"fake"';
      if (!parsed.stream) {
        response.setHeader("content-type", "application/json");
        return void response.end(`{${base},"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":${usage}}`);
      }
      response.setHeader("content-type", "text/event-stream");
      response.write(`data: {${base},"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\n`);
      response.write(`data: {${base},"object":"chat.completion.chunk","choices":[],"usage":${usage}}\n\n`);
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("usage an upstream reports wrong", function () {
  this.timeout(120_000);
  const temp = new TempDirs();
  after(() => temp.removeAll());

  it("neither stops a replica's usage writes nor its process: 3.5, \"12\", 1e400 and -4 tokens are served, and the requests after them are stored", async () => {
    const { url } = await freshDatabase();
    const engine = await badUsageEngine();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    const { app, deps } = await buildApp({ modelsDir: temp.make("models"), dataDir: temp.make("data"), localModels: false, database: url, upstreams: [{ name: "bad", baseUrl: engine.baseUrl }] });
    try {
      const origin = await app.listen({ host: "127.0.0.1", port: 0 });
      const { key, secret } = await deps.store.keys.create("bad-usage");
      const chat = async (prompt: string, stream: boolean) => {
        const response = await fetch(`${origin}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "fake", stream, messages: [{ role: "user", content: prompt }] }),
        });
        await response.text();
        return { status: response.status, id: response.headers.get("x-wisp-request-id")! };
      };
      const sent: { prompt: string; id: string }[] = [];
      for (const prompt of ["3.5", '"12"', "1e400", "-4", "7"]) {
        for (const stream of [false, true]) {
          const { status, id } = await chat(prompt, stream);
          assert.equal(status, 200, `${prompt}, stream ${stream}`);
          sent.push({ prompt, id });
        }
      }
      const stored = async () => new Map((await deps.store.usage.buckets(0)).filter((b) => b.key === key.id).map((b) => [b.model, b]));
      const rows = await waitFor("every request's record stored", stored, (m) => m.get("fake")?.requests === sent.length, 10_000);
      // 3.5 counts as 4; the others are no count; 7 is 7, twice each.
      assert.equal(rows.get("fake")!.prompt_tokens, 2 * (4 + 7));
      assert.equal(rows.get("fake")!.completion_tokens, 2 * 2 * 5);
      assert.deepEqual(rejections, []);
    } finally {
      process.off("unhandledRejection", onRejection);
      await app.close();
      await engine.close();
    }
  });

  it("sets a record the database refuses aside, counted and logged, and stores the records queued behind it", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    let rejected = 0;
    const metrics = { databaseError: () => undefined, keyCache: () => undefined, usageRejected: () => void rejected++ };
    const health = new DatabaseHealth(() => pool.query("SELECT 1"), metrics, () => undefined);
    const lines: string[] = [];
    const usage = new PgUsage(pool, health, 1_000, (line) => lines.push(line), metrics);
    try {
      await underLock(pool, (client) => migrate(client));
      const record = (prompt_tokens: number) => usage.record({ id: randomUUID(), t: Date.now(), key: "key_x", model: "m", status: 200, prompt_tokens, completion_tokens: 1, images: 0 });
      // A count no upstream check caught: the bigint column refuses it.
      const bad = record(3.5);
      const good = Array.from({ length: 9 }, (_, i) => record(i));
      await Promise.all([bad, ...good]);
      const rows = await waitFor("the good records stored", async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM wisp_usage_events")).rows[0]!.n, (n) => n === 9, 10_000);
      assert.equal(rows, 9);
      assert.equal(await usage.flush(5_000), 0, "nothing left waiting");
      assert.equal(rejected, 1);
      assert.match(lines.join("\n"), /usage: record [\w-]+ set aside, the database refused it: invalid input syntax for type bigint: "3.5"/);
      assert.ok(health.up);
    } finally {
      usage.close();
      health.close();
      await pool.end();
    }
  });
});
