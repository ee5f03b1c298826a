import { buildApp } from "/work/wt/rel/src/server/app.ts";
import OpenAI from "openai";
const { app, deps } = await buildApp({ modelsDir: "/tmp/rel/models", dataDir: "/tmp/rel/data" });
const { secret } = await deps.keys.create("t");
const origin = await app.listen({ host: "127.0.0.1", port: 0 });
const prompt = "x".repeat(40 * 1024 * 1024);
const client = new OpenAI({ baseURL: origin + "/v1", apiKey: secret, maxRetries: 0 });
const tally = {};
for (let i = 0; i < 10; i++) {
  let k;
  try { await client.completions.create({ model: "wisp-tiny", prompt }); k = "ok"; }
  catch (e) { k = e.status ?? (e.cause?.code ?? e.cause?.cause?.code ?? e.message); }
  tally[k] = (tally[k] ?? 0) + 1;
}
console.log("sdk", tally);
// chunked upload (no content-length)
const t2 = {};
for (let i = 0; i < 5; i++) {
  let k;
  try {
    const stream = new ReadableStream({ start(c) { for (let j = 0; j < 40; j++) c.enqueue(new TextEncoder().encode(j === 0 ? '{"model":"wisp-tiny","prompt":"' + "x".repeat(1024*1024) : "x".repeat(1024 * 1024))); c.close(); } });
    const r = await fetch(`${origin}/v1/completions`, { method: "POST", duplex: "half", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: stream });
    k = r.status;
  } catch (e) { k = e.cause?.code ?? e.message; }
  t2[k] = (t2[k] ?? 0) + 1;
}
console.log("chunked", t2);
await app.close();
