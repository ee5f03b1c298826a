import type { Frame, Page } from "playwright-core";

export interface StreamTiming {
  /** Streamed-text messages the page received. */
  readonly deltas: number;
  /** Per message: milliseconds from its arrival to the end of the frame that drew it. */
  readonly toPaint: number[];
  /** Long tasks (over 50 ms) the page ran while the answer streamed, in ms. */
  readonly longTasks: number[];
  /**
   * Whose each long task was, as the browser attributes it: `self` (the chat page's own code),
   * or an ancestor (the workbench around the webview, which shares its thread).
   */
  readonly longTaskOwners: string[];
  readonly frames: number;
  /** Milliseconds the page spent drawing in each animation frame (its requestAnimationFrame callbacks). */
  readonly drawMs: number[];
}

/**
 * Runs `stream` with observers in the page: arrival of each `delta` message (a capturing listener
 * that runs before the page's own), the frame that draws it (a DOM change, then a task queued
 * from it, which runs once that frame is painted), the time the page's frame callbacks take, and
 * the long-task observer.
 */
export async function measureStreaming(frame: Frame, stream: () => Promise<void>): Promise<StreamTiming> {
  await frame.evaluate(() => {
    const probe = { deltas: 0, pending: [] as number[], toPaint: [] as number[], longTasks: [] as number[], longTaskOwners: [] as string[], frames: 0, drawMs: [] as number[] };
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) =>
      raf((time) => {
        const start = performance.now();
        callback(time);
        probe.drawMs.push(performance.now() - start);
      });
    (window as unknown as { probe: typeof probe }).probe = probe;
    window.addEventListener("message", (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type !== "delta") return;
      probe.deltas++;
      probe.pending.push(performance.now());
    }, true);
    const channel = new MessageChannel();
    let armed = false;
    channel.port1.onmessage = () => {
      armed = false;
      const now = performance.now();
      probe.frames++;
      for (const arrived of probe.pending.splice(0)) probe.toPaint.push(now - arrived);
    };
    new MutationObserver(() => {
      if (armed || probe.pending.length === 0) return;
      armed = true;
      channel.port2.postMessage(0);
    }).observe(document.querySelector(".turns")!, { subtree: true, childList: true, characterData: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        probe.longTasks.push(entry.duration);
        probe.longTaskOwners.push(entry.name);
      }
    }).observe({ type: "longtask" });
  });
  await stream();
  return frame.evaluate(() => {
    const { deltas, toPaint, longTasks, longTaskOwners, frames, drawMs } = (window as unknown as { probe: StreamTiming }).probe;
    return { deltas, toPaint, longTasks, longTaskOwners, frames, drawMs };
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** One line of figures for the test output. */
export function summarize(timing: StreamTiming, tokens: number): string {
  const ms = (n: number) => n.toFixed(1);
  const over = timing.toPaint.filter((t) => t > 1000 / 60).length;
  return [
    `${tokens} tokens in ${timing.deltas} messages, drawn in ${timing.frames} frames;`,
    `arrival to paint p50 ${ms(percentile(timing.toPaint, 50))} ms, p95 ${ms(percentile(timing.toPaint, 95))} ms, max ${ms(Math.max(0, ...timing.toPaint))} ms (${over} over one 16.7 ms frame);`,
    `drawing per frame p50 ${ms(percentile(timing.drawMs, 50))} ms, p95 ${ms(percentile(timing.drawMs, 95))} ms, max ${ms(Math.max(0, ...timing.drawMs))} ms;`,
    `long tasks over 50 ms: ${timing.longTasks.length}${timing.longTasks.length ? ` (longest ${ms(Math.max(...timing.longTasks))} ms; ${owners(timing)})` : ""}`,
  ].join(" ");
}

/** "2 self, 1 cross-origin-ancestor": how many long tasks each owner ran. */
function owners(timing: StreamTiming): string {
  const counts = new Map<string, number>();
  for (const owner of timing.longTaskOwners) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  return [...counts].map(([owner, n]) => `${n} ${owner}`).join(", ");
}

/** A task of a renderer's main thread: how long it took, and how much of that the thread ran. */
export interface TaskCost {
  readonly wallMs: number;
  readonly cpuMs: number;
}

type TraceEvent = { ph?: string; name?: string; pid?: number; tid?: number; dur?: number; tdur?: number; args?: { name?: string } };

/**
 * Runs `work` under a Chrome trace and returns the renderer main threads' tasks that took over
 * 50 ms. Their CPU time tells work from time the thread waited for a core: on a small machine
 * shared with VS Code's server and extension host, a long task by the observer's wall clock can
 * hold little work. Printed, not asserted (timings belong in benchmarks); the thread is shared
 * with the workbench, so these tasks are its as well as the chat page's.
 */
export async function traceLongTasks<T>(page: Page, work: () => Promise<T>): Promise<{ result: T; tasks: TaskCost[] }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (data) => events.push(...(data.value as TraceEvent[])));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] }, transferMode: "ReportEvents" });
  let result: T;
  try {
    result = await work();
  } finally {
    const complete = new Promise<void>((done) => cdp.once("Tracing.tracingComplete", () => done()));
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const mains = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map(thread));
  const tasks = events
    .filter((e) => e.ph === "X" && e.name === "RunTask" && mains.has(thread(e)) && (e.dur ?? 0) > 50_000)
    .map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }));
  return { result, tasks };
}

/** One line about traced long tasks. */
export function summarizeTasks(tasks: TaskCost[]): string {
  if (tasks.length === 0) return "traced renderer tasks over 50 ms: none";
  const longest = Math.max(...tasks.map((t) => t.cpuMs));
  return `traced renderer tasks over 50 ms of wall time: ${tasks.length} (${tasks.map((t) => `${t.wallMs.toFixed(0)}`).join(", ")} ms), their CPU time at most ${longest.toFixed(1)} ms`;
}
