// Tool calling costs on the generated tiny model, in-process: rendering a chat prompt (with and
// without tools) with the template's wrapper made per request against the wrapper the engine
// keeps per model, and generating a call under the call grammar against free text of the same
// length. Run with `npx tsx bench/tool-calls.bench.ts` (or `npm run bench`).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { renderToolChatPrompt, type ChatTool } from "../src/server/engines/text/chat-prompt";
import { TextEngine } from "../src/server/engines/text/text-engine";
import type { SamplingSettings } from "../src/server/engines/text/types";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";

const runs = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const TOOLS: ChatTool[] = [
  { name: "get_weather", description: "Weather in a city", parameters: { type: "object", properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } }, required: ["city"] } },
  { name: "get_time", description: "The time in a zone", parameters: { type: "object", properties: { zone: { enum: ["UTC", "CET"] } } } },
];
const MESSAGES = [
  { role: "system" as const, content: "You answer briefly." },
  { role: "user" as const, content: "What is the weather in Paris, and what time is it there?" },
];

const dir = await mkdtemp(path.join(os.tmpdir(), "wisp-tool-bench-"));
const file = path.join(dir, "wisp-tiny.gguf");
await writeTinyLlamaGguf(file, "tiny");
const engine = new TextEngine({ threads: 1, parallel: 1, contextSize: 2048, maxQueue: 4, prefixReuse: true });
try {
  const model = await engine.model("wisp-tiny", file);
  /** ms per call of `f`, median of `runs` rounds of `n` calls. */
  const perCall = async (f: () => unknown, n: number) => {
    const rounds: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await f();
      rounds.push((performance.now() - t0) / n);
    }
    return median(rounds);
  };
  console.log(`tool-calls: rendering, median of ${runs} rounds, ms per prompt`);
  console.log("| prompt | wrapper per request | wrapper kept | kept vs per request |");
  console.log("|---|---:|---:|---:|");
  for (const [label, tools] of [["no tools", []], ["two tools", TOOLS]] as const) {
    const fresh = await perCall(() => renderToolChatPrompt(model, MESSAGES, tools), 20);
    const kept = await perCall(() => engine.toolChatPrompt(model, MESSAGES, tools), 20);
    console.log(`| ${label} | ${fresh.toFixed(2)} | ${kept.toFixed(2)} | ${(kept / fresh).toFixed(3)}x |`);
  }

  const rendered = engine.toolChatPrompt(model, MESSAGES, TOOLS);
  const grammar = await engine.toolCallGrammar("wisp-tiny", file, rendered.layout, TOOLS);
  const base: SamplingSettings = { temperature: 1, seed: 1, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map() };
  const generate = (sampling: SamplingSettings, maxTokens: number) =>
    engine.generate("wisp-tiny", file, { prompt: rendered.tokens, promptParam: "messages", n: 1, maxTokens, stop: [], sampling, signal: new AbortController().signal });
  const call = await generate({ ...base, grammar }, 400);
  const tokens = call.completionTokens;
  const rate = async (sampling: SamplingSettings) => {
    const rounds: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const result = await generate(sampling, tokens);
      rounds.push((result.completionTokens * 1000) / (performance.now() - t0));
    }
    return median(rounds);
  };
  const free = await rate(base);
  const constrained = await rate({ ...base, grammar });
  console.log(`\ntool-calls: generation of ${tokens} tokens (a whole call), median of ${runs} runs, tokens/s`);
  console.log("| generation | tokens/s | vs free text |");
  console.log("|---|---:|---:|");
  console.log(`| free text | ${free.toFixed(0)} | 1.000x |`);
  console.log(`| a call under the call grammar | ${constrained.toFixed(0)} | ${(constrained / free).toFixed(3)}x |`);
} finally {
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
}
