// The first healed completion on a large byte-level vocabulary: Qwen2.5-Coder's real 151k-token
// qwen2 tokenizer (tiny random weights), through the server over HTTP. As in the editor, a warm-up
// (max_tokens 0, sent when a file opens) loads the model, the user pauses, and the first completion
// at the cursor comes with a prefix ending inside a word, so its last token is healed. Its latency
// is set against the second identical request's, in the same round (prefix reuse off: both evaluate
// the whole prompt), over several rounds, each on a model loaded anew. The server runs in this
// process: its CPU time per request (llama.cpp's threads included) is printed beside the wall time,
// which a busy machine makes noisy.
// Run with `npx tsx bench/first-healed-request.bench.ts` (or `npm run bench`).
import { symlink } from "node:fs/promises";
import path from "node:path";
import { startServer } from "../test/server/server-fixture";
import { realFamilies, writeFamilyModels } from "../test/server/support/real-families";
import { percentile, printTable } from "./typing/table";

const ROUNDS = 7;
/** Between opening a file (the warm-up) and the first completion: reading, then typing a few keys. */
const PAUSE_MS = 1000;
const qwen = realFamilies.find((f) => f.vocab === "qwen2")!;
const ids = Array.from({ length: ROUNDS }, (_, round) => `${qwen.id}-${round}`);

const server = await startServer({
  prefixReuse: false,
  prepare: async (dir) => {
    await writeFamilyModels(dir, path.join(dir, "..", "vocab"), [qwen]);
    // One file per round under its own id: each round loads the model anew.
    for (const id of ids) await symlink(path.join(dir, `${qwen.id}.gguf`), path.join(dir, `${id}.gguf`));
  },
});
const healed = (model: string) => ({ model, prompt: "def area(radius):\n    ret", suffix: "\n\nprint(area(2))", max_tokens: 1, temperature: 0 });
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Wall and CPU milliseconds of one request. */
const timed = async (body: object) => {
  const [started, cpu] = [performance.now(), cpuMs()];
  const response = await server.fetch("/v1/completions", { json: body });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  await response.json();
  return { wall: performance.now() - started, cpu: cpuMs() - cpu };
};

const first: { wall: number; cpu: number }[] = [];
const second: { wall: number; cpu: number }[] = [];
try {
  for (const id of ids) {
    await timed({ model: id, prompt: "def", max_tokens: 0 });
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    first.push(await timed(healed(id)));
    second.push(await timed(healed(id)));
  }
  const metrics = (await (await server.fetch("/metrics.json")).json()) as { tokenTables?: { builtAtLoad: number; builtOnRequest: number } };
  const tables = metrics.tokenTables ? `built at load ${metrics.tokenTables.builtAtLoad}, on a request ${metrics.tokenTables.builtOnRequest}` : "not counted by this server";
  console.log(`\nfirst healed completion after the warm-up and a ${PAUSE_MS} ms pause, ${qwen.id} (151,665 tokens), ${ROUNDS} rounds; token tables ${tables}`);
  const median = (xs: number[]) => percentile(xs, 0.5);
  const row = (name: string, runs: { wall: number; cpu: number }[]) => [name, median(runs.map((r) => r.wall)), Math.min(...runs.map((r) => r.wall)), median(runs.map((r) => r.cpu)), Math.min(...runs.map((r) => r.cpu))];
  const extra = first.map((r, i) => ({ wall: r.wall - second[i]!.wall, cpu: r.cpu - second[i]!.cpu }));
  const ratio = (key: "wall" | "cpu") => `${(median(first.map((r) => r[key])) / median(second.map((r) => r[key]))).toFixed(2)}x`;
  printTable(
    ["request", "median ms", "min ms", "median CPU ms", "min CPU ms"],
    [row("first healed completion", first), row("second (baseline)", second), row("first - second, per round", extra), ["first / second", ratio("wall"), "", ratio("cpu"), ""]],
    [1, 1, 1, 1],
  );
} finally {
  await server.close();
}
