import type { Page } from "playwright-core";

/**
 * A task of a renderer's main thread: how long it took, how much of that the thread ran, and how
 * much of it was the webview's own work (events the trace attributes to the webview's frames).
 */
export interface RendererTask {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly pageWallMs: number;
  readonly pageCpuMs: number;
}

type TraceEvent = {
  ph?: string;
  name?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { frame?: string; frames?: TraceFrame[]; parent?: string; url?: string }; beginData?: { frame?: string } };
};
type TraceFrame = { frame: string; parent?: string; url?: string };

/**
 * Runs `work` under a Chrome trace and returns the renderer main threads' tasks that took over
 * 50 ms of wall time or ran any of the webview's work. code-server serves webviews from the
 * workbench's own origin, so the webview shares the workbench's thread (VS Code desktop gives it
 * a process of its own), and on a small machine shared with VS Code's server and extension host a
 * task's wall time also holds time the thread waited for a core: CPU time and frame attribution
 * tell the page's work apart. Printed, not asserted (timings belong in benchmarks).
 */
export async function traceRendererTasks<T>(page: Page, work: () => Promise<T>): Promise<{ result: T; tasks: RendererTask[] }> {
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
  return { result, tasks: rendererTasks(events) };
}

function rendererTasks(events: TraceEvent[]): RendererTask[] {
  const webview = webviewFrames(events);
  const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const mains = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map(thread));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== "X" || e.ts === undefined || e.dur === undefined || !mains.has(thread(e))) continue;
    const list = byThread.get(thread(e)) ?? [];
    list.push(e);
    byThread.set(thread(e), list);
  }
  const tasks: RendererTask[] = [];
  for (const list of byThread.values()) {
    // Parents before their children: a task's events follow it until its end.
    list.sort((a, b) => a.ts! - b.ts! || b.dur! - a.dur!);
    let task: { event: TraceEvent; end: number; pageWall: number; pageCpu: number } | undefined;
    let attributedEnd = -1;
    const close = () => {
      if (task && (task.event.dur! > 50_000 || task.pageWall > 0)) {
        tasks.push({ wallMs: task.event.dur! / 1000, cpuMs: (task.event.tdur ?? 0) / 1000, pageWallMs: task.pageWall / 1000, pageCpuMs: task.pageCpu / 1000 });
      }
      task = undefined;
    };
    for (const e of list) {
      if (task && e.ts! >= task.end) close();
      if (e.name === "RunTask" && task === undefined) {
        task = { event: e, end: e.ts! + e.dur!, pageWall: 0, pageCpu: 0 };
        continue;
      }
      const frame = e.args?.data?.frame ?? e.args?.beginData?.frame;
      // Count only the outermost attributed event: nested ones are part of its time.
      if (!task || frame === undefined || e.ts! < attributedEnd) continue;
      attributedEnd = e.ts! + e.dur!;
      if (!webview.has(frame)) continue;
      task.pageWall += e.dur!;
      task.pageCpu += e.tdur ?? 0;
    }
    close();
  }
  return tasks;
}

/** The frames of webviews (VS Code's webview host page and the content frames inside it). */
function webviewFrames(events: TraceEvent[]): Set<string> {
  const frames = new Map<string, TraceFrame>();
  for (const e of events) {
    if (e.name === "TracingStartedInBrowser") for (const f of e.args?.data?.frames ?? []) frames.set(f.frame, f);
    const data = e.args?.data;
    if (e.name === "FrameCommittedInBrowser" && data?.frame) frames.set(data.frame, { ...frames.get(data.frame), ...data, frame: data.frame });
  }
  const isWebview = (id: string | undefined, depth = 0): boolean => {
    const f = id === undefined ? undefined : frames.get(id);
    if (f === undefined || depth > 16) return false;
    return (f.url ?? "").includes("/webview/browser/pre/") || isWebview(f.parent, depth + 1);
  };
  return new Set([...frames.keys()].filter((id) => isWebview(id)));
}

/** Two lines: the renderer's long tasks, and the webview's own work per task. */
export function summarizeRendererTasks(tasks: RendererTask[]): string[] {
  const ms = (n: number) => n.toFixed(1);
  const max = (values: number[]) => Math.max(0, ...values);
  const long = tasks.filter((t) => t.wallMs > 50);
  const page = tasks.filter((t) => t.pageWallMs > 0);
  return [
    long.length === 0
      ? "traced renderer tasks over 50 ms: none"
      : `traced renderer tasks over 50 ms of wall time: ${long.length} (${long.map((t) => t.wallMs.toFixed(0)).join(", ")} ms), their CPU time at most ${ms(max(long.map((t) => t.cpuMs)))} ms, the webview's work in them at most ${ms(max(long.map((t) => t.pageCpuMs)))} ms of CPU`,
    `the webview's own work (trace, by frame): ${page.length} tasks, at most ${ms(max(page.map((t) => t.pageCpuMs)))} ms of CPU and ${ms(max(page.map((t) => t.pageWallMs)))} ms of wall time in one task; over 50 ms of CPU: ${page.filter((t) => t.pageCpuMs > 50).length}, of wall time: ${page.filter((t) => t.pageWallMs > 50).length}`,
  ];
}
