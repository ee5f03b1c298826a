const [origin, key] = process.argv.slice(2);
const body = JSON.stringify({ model: "wisp-tiny", prompt: "x".repeat(40 * 1024 * 1024) });
const tally = {};
for (let i = 0; i < 10; i++) {
  let k;
  try { const r = await fetch(origin + "/v1/completions", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body }); k = r.status; await r.text(); }
  catch (e) { k = e.cause?.code ?? e.message; }
  tally[k] = (tally[k] ?? 0) + 1;
}
console.log(tally);
