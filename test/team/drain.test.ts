import assert from "node:assert/strict";
import OpenAI from "openai";
import { buildApp } from "../../src/server/app";
import { drain } from "../../src/server/drain";
import { TempDirs } from "../harness/temp-dirs";
import { freshDatabase } from "./support/shared-cluster";
import { streamChat } from "./support/streams";
import { SLOW_MODEL, startEngine, type Engine } from "./support/team";

describe("a drain whose grace ends with a stream still running", function () {
  this.timeout(120_000);
  const temp = new TempDirs();
  let engine: Engine | undefined;
  after(async () => {
    await engine?.process.stop();
    temp.removeAll();
  });

  it("cuts the stream, stores what it used before the store closes, and says so in its last line", async () => {
    const { cluster, name, url } = await freshDatabase();
    engine = await startEngine(12, 0);
    const { app, deps } = await buildApp({
      modelsDir: temp.make("models"),
      dataDir: temp.make("data"),
      localModels: false,
      database: url,
      upstreams: [{ name: "slow", baseUrl: engine.slow, keyEnv: "SLOW_KEY" }],
      env: { SLOW_KEY: "upstream-key" },
      drainDelayMs: 0,
      drainGraceMs: 500,
    });
    const origin = await app.listen({ host: "127.0.0.1", port: 0 });
    const { key, secret } = await deps.store.keys.create("drained");
    const lines: string[] = [];
    let drained: Promise<void> | undefined;
    // 40 tokens at 10 a second: still running when the half-second grace ends.
    const stream = await streamChat(new OpenAI({ baseURL: `${origin}/v1`, apiKey: secret, maxRetries: 0 }), key.id, () => (drained = drain(app, deps, (line) => lines.push(line))), SLOW_MODEL);
    await drained;
    assert.equal(stream.outcome, "failed", "cut before its end");
    assert.match(lines.join("\n"), /1 requests still running after 0.5 s: ending them/);
    const rows = await cluster.query<{ completion_tokens: string }>("SELECT completion_tokens FROM wisp_usage_events WHERE id = $1", [stream.id], name);
    assert.equal(rows.length, 1, `the cut stream's usage stored; the drain said: ${lines.join(" / ")}`);
    assert.ok(Number(rows[0]!.completion_tokens) >= 1);
    assert.equal(lines.at(-1), "stopped");
  });
});
