import { buildApp } from "../src/server/app.ts";
const { app, deps } = await buildApp({ modelsDir: "/tmp/rel/models", dataDir: "/tmp/rel/data" });
const { secret } = await deps.keys.create("t");
const origin = await app.listen({ host: "127.0.0.1", port: 0 });
const body = JSON.stringify({ model: "wisp-tiny", prompt: "x".repeat(40 * 1024 * 1024) });
for (const [name, path, auth] of [["bad key", "/v1/completions", "Bearer nope"], ["no route", "/v1/nothing", `Bearer ${secret}`], ["images", "/v1/images/generations", `Bearer ${secret}`], ["health", "/health", ""]]) {
  const tally = {};
  for (let i = 0; i < 5; i++) {
    let k;
    try { const r = await fetch(origin + path, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body }); k = r.status; await r.text(); }
    catch (e) { k = e.cause?.code ?? e.message; }
    tally[k] = (tally[k] ?? 0) + 1;
  }
  console.log(name, tally);
}
await app.close();
