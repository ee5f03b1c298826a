// Where each server's resident memory goes on the Qwen2.5-Coder shapes: wisp-server and llama-server
// with the coder bench's flags, read from /proc right after start, after a short completion (which
// loads the model on wisp-server), after a 512-token prompt and after the coder bench's typing replay
// (its first WISP_BENCH_REPLAY_KEYS keys, default 60); each mapping's share (smaps) at the end; and
// two baselines: a bare node process, and node with fastify listening.
// Run with `npx tsx bench/engine/memory-breakdown.ts`; WISP_BENCH_CODER_MODELS as the coder bench
// (default "0.5b:q8_0").
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { cpuPin } from "./cpu-pin";
import { llamaServerBinary, startLlamaServer } from "./llama-server";
import { llamaVscodeClient } from "./llama-vscode-client";
import { replayPauses } from "./pause-replay";
import { residentByMapping, residentMemory } from "./process-memory";
import { qwenCoderModel, qwenCoderModelId, type BenchQuant, type QwenCoderSize } from "./qwen-coder-models";
import { closeTimingAgent, timedCompletion } from "./stream-timing";
import { wispPauseClient } from "./wisp-pause-client";
import { startWispServer } from "../typing/local-server";
import { loadSession } from "../typing/replay";
import { fmt, printTable } from "../typing/table";

const MODELS = (process.env.WISP_BENCH_CODER_MODELS ?? "0.5b:q8_0").split(",").map((m) => m.split(":") as [QwenCoderSize, BenchQuant]);
const CONTEXT = 8192;
const REPLAY_KEYS = Number(process.env.WISP_BENCH_REPLAY_KEYS ?? 60);
const { session, texts } = loadSession("test/fixtures/typing");
const pin = cpuPin(process.env.ENGINE_BENCH_CPU ?? "0,1");
const binary = llamaServerBinary();

/** Resident MiB now and at peak, as "rss / peak". */
const both = (pid: number | undefined) => {
  const m = residentMemory(pid);
  return `${fmt(m.rss)} / ${fmt(m.peak)}`;
};

/** A node process running `script`, measured once it prints "ready". */
async function baseline(script: string): Promise<string> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of createInterface({ input: child.stdout })) if (line === "ready") break;
  const measured = both(child.pid);
  const exited = new Promise((done) => child.once("exit", done));
  child.kill();
  await exited;
  return measured;
}

const baselines = [
  ["node -e (bare)", await baseline("console.log('ready'); setInterval(() => {}, 1000);")],
  ["node + fastify listening", await baseline("const { default: F } = await import('fastify'); const a = F(); a.get('/', async () => 'ok'); await a.listen({ port: 0 }); console.log('ready');")],
];
printTable(["process", "RSS / peak MiB"], baselines);

for (const [size, quant] of MODELS) {
  const file = await qwenCoderModel(size, quant);
  const model = qwenCoderModelId(size, quant);
  const flags = ["--threads", "1", "--threads-batch", "2", "--parallel", "1", "--ctx-size", String(CONTEXT)];
  const wisp = await startWispServer(file, model, flags, pin);
  const native = await startLlamaServer(binary, file, { threads: 1, threadsBatch: 2, contextSize: CONTEXT, pin, extraArgs: ["-b", "1024", "-ub", "1024", "--cache-reuse", "256"] });
  try {
    const servers = [
      { pid: wisp.pid, run: (body: object) => timedCompletion(wisp.baseUrl, wisp.apiKey, { model, temperature: 0, ...body }) },
      { pid: native.pid, run: (body: object) => timedCompletion(native.baseUrl, "none", { model, temperature: 0, ...body }) },
    ];
    const rows: string[][] = [["after start", ...servers.map((s) => both(s.pid))]];
    for (const s of servers) await s.run({ prompt: Array.from({ length: 16 }, (_, i) => 1000 + i), max_tokens: 4 });
    rows.push(["after a 16-token completion", ...servers.map((s) => both(s.pid))]);
    // Tokens the short prompt did not start with: all 512 evaluated.
    for (const s of servers) await s.run({ prompt: Array.from({ length: 512 }, (_, i) => 2000 + i * 7), max_tokens: 4 });
    rows.push(["after a 512-token prompt", ...servers.map((s) => both(s.pid))]);
    await replayPauses(session, texts, wispPauseClient(wisp, 16, {}), REPLAY_KEYS);
    await replayPauses(session, texts, llamaVscodeClient(native, 16, []), REPLAY_KEYS);
    rows.push([`after a replay of ${REPLAY_KEYS} keys`, ...servers.map((s) => both(s.pid))]);
    console.log(`\n${model}: resident memory (MiB, VmRSS / VmHWM)`);
    printTable(["stage", "wisp-server", "llama-server"], rows);
    const [ours, theirs] = [residentByMapping(wisp.pid), residentByMapping(native.pid)];
    const names = [...new Set([...ours.keys(), ...theirs.keys()])].filter((n) => (ours.get(n) ?? 0) + (theirs.get(n) ?? 0) >= 1);
    names.sort((a, b) => (ours.get(b) ?? 0) + (theirs.get(b) ?? 0) - (ours.get(a) ?? 0) - (theirs.get(a) ?? 0));
    printTable(["mapping (smaps Rss >= 1 MiB)", "wisp-server", "llama-server"], names.map((n) => [n, fmt(ours.get(n) ?? 0, 1), fmt(theirs.get(n) ?? 0, 1)]));
  } finally {
    await wisp.stop();
    await native.stop();
  }
}
closeTimingAgent();
