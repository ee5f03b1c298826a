// Packs a dataset (build-dataset.ts --shards N) and the dev cases (dev-cases.ts) for the GPU
// machine: each token shard, the examples and the dev cases xz-compressed, dataset.json and
// tokenizer.json as they are, into one folder that `run` carries. Checks what travels against the
// device's limit: the working tree (tracked and untracked files git does not ignore) and the
// carried folder together, 64 MiB; says how much room is left, which a resumed run's checkpoint
// needs (weights in q8_0: about 1.06 bytes a parameter), and which shards to leave behind for it.
//   npx tsx .gpu/pack.ts --data DIR --cases FILE.json --out DIR [--checkpoint-params N]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

/** What `run` takes along at most: the working tree and the carried paths together. */
export const TRAVEL_LIMIT = 64 * 2 ** 20;

const { values } = parseArgs({ options: { data: { type: "string" }, cases: { type: "string" }, out: { type: "string" }, "checkpoint-params": { type: "string" } } });
if (!values.data || !values.cases || !values.out) throw new Error("--data DIR, --cases FILE and --out DIR are required");
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const say = (line: string) => process.stdout.write(`[pack] ${line}\n`);

const meta = JSON.parse(readFileSync(path.join(values.data, "dataset.json"), "utf8")) as { tokens: number; shards?: [number, number][] };
const shards = meta.shards ?? [[0, meta.tokens]];
rmSync(values.out, { recursive: true, force: true });
mkdirSync(values.out, { recursive: true });
const xz = (input: Buffer, to: string) => writeFileSync(to, execFileSync("xz", ["-9", "-T2", "-c"], { input, maxBuffer: 2 ** 31 }));

const tokens = readFileSync(path.join(values.data, "tokens.bin"));
const sizes = shards.map(([start, end], k) => {
  const file = path.join(values.out!, `tokens-${k}.bin.xz`);
  xz(tokens.subarray(2 * start, 2 * end), file);
  return statSync(file).size;
});
xz(readFileSync(path.join(values.data, "examples.bin")), path.join(values.out, "examples.bin.xz"));
xz(readFileSync(values.cases), path.join(values.out, "dev-cases.json.xz"));
writeFileSync(path.join(values.out, "dataset.json"), JSON.stringify({ ...meta, shards }, null, 1));
copyFileSync(path.join(values.data, "tokenizer.json"), path.join(values.out, "tokenizer.json"));

const folderSize = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? folderSize(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size), 0);
// The working tree as `run` sends it: tracked files, and untracked ones git does not ignore.
const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8", maxBuffer: 2 ** 28 }).split("\0").filter(Boolean);
const tree = listed.reduce((sum, file) => {
  try {
    return sum + statSync(file).size;
  } catch {
    return sum; // deleted but still tracked
  }
}, 0);
const packed = folderSize(values.out);
say(`${shards.length} token shards: ${sizes.map(mib).join(", ")}; ${meta.tokens.toLocaleString("en")} tokens in ${mib(sizes.reduce((a, b) => a + b, 0))} (${((8 * sizes.reduce((a, b) => a + b, 0)) / meta.tokens).toFixed(2)} bits a token)`);
say(`the folder ${mib(packed)}, the working tree ${mib(tree)}: ${mib(tree + packed)} of ${mib(TRAVEL_LIMIT)}, ${mib(TRAVEL_LIMIT - tree - packed)} left`);
if (tree + packed > TRAVEL_LIMIT) {
  say(`OVER the limit: build the dataset smaller (WISP_GPU_DATASET_TOKENS) or leave shards behind`);
  process.exitCode = 1;
}
if (values["checkpoint-params"]) {
  // q8_0: 34 bytes per 32 weights; the norms are a rounding error.
  const checkpoint = (Number(values["checkpoint-params"]) * 34) / 32;
  let room = TRAVEL_LIMIT - tree - packed - checkpoint;
  const behind: number[] = [];
  for (let k = shards.length - 1; room < 0 && k >= 0; k--) {
    behind.push(k);
    room += sizes[k]!;
  }
  say(`a resumed run carries its checkpoint (${mib(checkpoint)}): ${behind.length === 0 ? "every shard still fits" : `leave shard${behind.length > 1 ? "s" : ""} ${behind.sort().join(", ")} behind (rm ${behind.map((k) => `tokens-${k}.bin.xz`).join(" ")})`}`);
}
