// Ghost-text latency in the real VS Code (code-server + Chromium, real keystrokes) against a
// scripted backend that answers at once, typed with a human rhythm (bench/typing/bursts.ts: keys
// 40-200 ms apart, hesitations of 300-900 ms). Side by side in one code-server: Wisp, and the
// floor, a minimal extension with no debounce at all (test/fixtures/no-debounce-ghost) that asks the
// same backend on every call the editor makes while Wisp's completions are off; Wisp's toggle
// command switches sides, in interleaved rounds typing the same lines. Quick suggestions are off,
// so that ghost text is all that shows and typed words stay as typed. Prints per side the time
// from the last key before a hesitation to ghost text on screen (p50/p95, also for hesitations
// between and inside words; one that ends with no ghost text counts as never), requests per
// keystroke, and the ratios.
// Run with `npx tsx bench/ghost-latency.bench.ts` (or `npm run bench`). GHOST_BENCH_LINES sets the
// lines typed per side (default 16), GHOST_BENCH_ROUNDS how many rounds they are split into (4).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedApi } from "../test/harness/scripted-api";
import { TempDirs } from "../test/harness/temp-dirs";
import { ensureToolchain } from "../test/harness/toolchain";
import { ensureVsix } from "../test/harness/vsix";
import { waitFor } from "../test/harness/wait-for";
import { WorkbenchPage } from "../test/harness/workbench-page";
import { startWorkbench, type WorkbenchSession } from "../test/harness/workbench-session";
import { fmt, percentile, printTable } from "./typing/table";
import { hesitationMinMs, inWord, typedLines, type TypedLine } from "./typing/bursts";

interface Side {
  name: string;
  wispOn: boolean;
}

interface LineSample {
  /** Edits: the line's keys and the Enter after it. */
  keys: number;
  requests: number;
  /** Per hesitation: last key -> ghost text drawn (ms), Infinity when none came before the next key. */
  ghostMs: number[];
  /** Per hesitation: whether it came inside a word. */
  inWord: boolean[];
  /** Per hesitation with a request: last key -> that request arrived. */
  requestMs: number[];
}

const key = "sk-wisp-latency";
const model = "wisp-scripted";
const linesPerSide = Number(process.env.GHOST_BENCH_LINES ?? 16);
const rounds = Number(process.env.GHOST_BENCH_ROUNDS ?? 4);
const sides: Side[] = [
  { name: "no-debounce extension (floor)", wispOn: false },
  { name: "wisp (default settings)", wispOn: true },
];

const temp = new TempDirs();
// Digits: never typed in the bench's lines, so no key ever types into a suggestion.
const server = await ScriptedApi.start({ key, models: [model], complete: () => "42" });
let session: WorkbenchSession | undefined;
try {
  const toolchain = ensureToolchain();
  const vsix = ensureVsix();
  const folder = temp.make("ghost-latency");
  writeFileSync(join(folder, "bench.ts"), "// typed by the latency benchmark\n");
  session = await startWorkbench({
    toolchain,
    vsixes: [vsix],
    fixtures: ["no-debounce-ghost"],
    folder,
    settings: {
      "wisp.baseUrl": server.baseUrl,
      "wisp.completion.enabled": false,
      "noDebounceGhost.baseUrl": server.baseUrl,
      "noDebounceGhost.model": model,
      "editor.quickSuggestions": { other: "off", comments: "off", strings: "off" },
      "editor.suggestOnTriggerCharacters": false,
    },
    env: { WISP_API_KEY: key },
    tempPrefix: "ghost-latency-",
  });
  const ui = new WorkbenchPage(session.page!);
  await ui.waitReady();
  await waitFor("Wisp ready", () => ui.statusText("wisp.wisp.wisp.status").catch(() => ""), (t) => /^Wisp( \d+ms)?$/.test(t), 60_000);
  await ui.openFile("bench.ts");
  await ui.typeAtEnd("\n");
  await instrument(ui);

  const lines = typedLines(linesPerSide);
  const perRound = Math.ceil(linesPerSide / rounds);
  const samples = new Map<string, LineSample[]>(sides.map((s) => [s.name, []]));
  // Interleaved rounds typing the same lines, so that the machine's load drifts over both alike.
  for (let round = 0; round < rounds; round++) {
    for (const side of sides) {
      await switchTo(ui, side);
      for (const line of lines.slice(round * perRound, (round + 1) * perRound)) samples.get(side.name)!.push(await typeLine(ui, server, line));
    }
  }

  const rows = sides.map((side) => {
    const list = samples.get(side.name)!;
    const ghost = list.flatMap((s) => s.ghostMs);
    const inWord = list.flatMap((s) => s.inWord);
    const where = (inside: boolean) => ghost.filter((_, i) => inWord[i] === inside);
    const keys = list.reduce((a, s) => a + s.keys, 0);
    const requests = list.reduce((a, s) => a + s.requests, 0);
    const shown = ghost.filter(Number.isFinite).length;
    return {
      name: side.name,
      shown: `${shown}/${ghost.length}`,
      p50: percentile(ghost, 0.5),
      p95: percentile(ghost, 0.95),
      between: percentile(where(false), 0.5),
      inside: percentile(where(true), 0.5),
      perKey: requests / keys,
      request: percentile(list.flatMap((s) => s.requestMs), 0.5),
    };
  });
  console.log(`ghost-text latency in the real VS Code, instant scripted backend, human rhythm (keys 40-200 ms apart, hesitations 300-900 ms), ${linesPerSide} lines per side in ${rounds} interleaved rounds`);
  printTable(
    ["side", "hesitations with ghost text", "p50 pause -> ghost (ms)", "p95 (ms)", "p50 between words", "p50 inside a word", "requests/keystroke", "p50 key -> request (ms)"],
    rows.map((r) => [r.name, r.shown, r.p50, r.p95, r.between, r.inside, r.perKey, r.request]),
    [0, 0, 0, 0, 0, 0, 3, 0],
  );
  const [floor, wisp] = rows as [(typeof rows)[0], (typeof rows)[0]];
  const latency = wisp.p50 / floor.p50;
  const requests = wisp.perKey / floor.perKey;
  console.log(`\nwisp / floor: p50 pause -> ghost ${fmt(latency, 2)}x (target <= 1.5: ${latency <= 1.5 ? "met" : "MISSED"}), requests ${fmt(requests, 2)}x (target <= 0.6: ${requests <= 0.6 ? "met" : "MISSED"})`);
} finally {
  await session?.stop();
  await server.close();
  temp.removeAll();
}

/** Turns Wisp's completions on or off (the floor asks while they are off), as a user would. */
async function switchTo(ui: WorkbenchPage, side: Side): Promise<void> {
  const isOn = async () => !/completions off/.test((await ui.statusItem("wisp.wisp.wisp.status").locator("a").getAttribute("aria-label")) ?? "");
  if ((await isOn()) === side.wispOn) return;
  await ui.runCommand("Wisp: Toggle Completions");
  await waitFor(`completions ${side.wispOn ? "on" : "off"}`, isOn, (on) => on === side.wispOn, 10_000);
}

/** Records, in the page, when keys go down and when ghost text appears (wall-clock ms). */
async function instrument(ui: WorkbenchPage): Promise<void> {
  await ui.page.evaluate(() => {
    const w = window as unknown as { wispKeys: number[]; wispGhosts: number[] };
    w.wispKeys = [];
    w.wispGhosts = [];
    document.addEventListener("keydown", () => w.wispKeys.push(Date.now()), true);
    let shown = false;
    new MutationObserver(() => {
      const now = document.querySelector(".monaco-editor .ghost-text-decoration, .monaco-editor .ghost-text") !== null;
      if (now && !shown) w.wispGhosts.push(Date.now());
      shown = now;
    }).observe(document.body, { subtree: true, childList: true });
  });
}

/** Types one line with real keystrokes in its rhythm, measures each hesitation, then starts a new line. */
async function typeLine(ui: WorkbenchPage, api: ScriptedApi, line: TypedLine): Promise<LineSample> {
  const page = ui.page;
  const requestsBefore = api.textRequests.length;
  const keysBefore = await page.evaluate(() => (window as unknown as { wispKeys: number[] }).wispKeys.length);
  for (const [i, ch] of [...line.keys].entries()) {
    await page.keyboard.type(ch);
    await new Promise((done) => setTimeout(done, line.gapsMs[i]));
  }
  await page.keyboard.press("Escape"); // ends the last hesitation (its keydown is recorded)
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await new Promise((done) => setTimeout(done, 400));
  const { keys, ghosts } = await page.evaluate(() => {
    const w = window as unknown as { wispKeys: number[]; wispGhosts: number[] };
    return { keys: w.wispKeys, ghosts: w.wispGhosts };
  });
  const down = keys.slice(keysBefore);
  const sent = api.textRequests.slice(requestsBefore).map((r) => r.at);
  const ghostMs: number[] = [];
  const inWords: boolean[] = [];
  const requestMs: number[] = [];
  line.gapsMs.forEach((gap, i) => {
    if (gap < hesitationMinMs) return;
    const [from, to] = [down[i]!, down[i + 1]!];
    const ghostAt = ghosts.find((t) => t >= from && t < to);
    ghostMs.push(ghostAt === undefined ? Infinity : ghostAt - from);
    inWords.push(inWord(line.keys, i));
    const requestAt = sent.find((t) => t >= from && t < to);
    if (requestAt !== undefined) requestMs.push(requestAt - from);
  });
  return { keys: line.keys.length + 1, requests: sent.length, ghostMs, inWord: inWords, requestMs };
}
