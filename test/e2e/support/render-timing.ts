import type { Frame } from "playwright-core";

export interface StreamTiming {
  /** Streamed-text messages the page received. */
  readonly deltas: number;
  /** Per message: milliseconds from its arrival to the end of the frame that drew it. */
  readonly toPaint: number[];
  /** Per message: animation frames that began from its arrival until the one that drew it (1: the next one). */
  readonly framesWaited: number[];
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
    const probe = { deltas: 0, pending: [] as number[], pendingFrames: [] as number[], toPaint: [] as number[], framesWaited: [] as number[], longTasks: [] as number[], longTaskOwners: [] as string[], frames: 0, drawMs: [] as number[] };
    // Every animation frame the page gets, counted from a callback of the probe's own that runs first in each.
    const raf = window.requestAnimationFrame.bind(window);
    let frameCount = 0;
    // Assigned, not declared with a name: the test's build would wrap a named function in a helper the page lacks.
    const counter: { next?: () => void } = {};
    counter.next = () => raf(() => (frameCount++, counter.next!()));
    counter.next();
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
      probe.pendingFrames.push(frameCount);
    }, true);
    const channel = new MessageChannel();
    let armed = false;
    channel.port1.onmessage = () => {
      armed = false;
      const now = performance.now();
      probe.frames++;
      for (const arrived of probe.pending.splice(0)) probe.toPaint.push(now - arrived);
      for (const frame of probe.pendingFrames.splice(0)) probe.framesWaited.push(frameCount - frame);
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
    const { deltas, toPaint, framesWaited, longTasks, longTaskOwners, frames, drawMs } = (window as unknown as { probe: StreamTiming }).probe;
    return { deltas, toPaint, framesWaited, longTasks, longTaskOwners, frames, drawMs };
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
    `arrival to paint p50 ${ms(percentile(timing.toPaint, 50))} ms, p95 ${ms(percentile(timing.toPaint, 95))} ms, max ${ms(Math.max(0, ...timing.toPaint))} ms (${over} over 16.7 ms);`,
    `${nextFrame(timing)};`,
    `drawing per frame p50 ${ms(percentile(timing.drawMs, 50))} ms, p95 ${ms(percentile(timing.drawMs, 95))} ms, max ${ms(Math.max(0, ...timing.drawMs))} ms;`,
    `long tasks over 50 ms: ${timing.longTasks.length}${timing.longTasks.length ? ` (longest ${ms(Math.max(...timing.longTasks))} ms; ${owners(timing)})` : ""}`,
  ].join(" ");
}

/** How many messages the first frame after their arrival drew, and how long the rest waited. */
function nextFrame(timing: StreamTiming): string {
  const waited = timing.framesWaited;
  const next = waited.filter((n) => n <= 1).length;
  const later = waited.length - next;
  return `${next} of ${timing.deltas} messages drawn in the first frame after they arrived${later > 0 ? `, ${later} within ${Math.max(...waited)} frames` : ""}`;
}

/** "2 self, 1 cross-origin-ancestor": how many long tasks each owner ran. */
function owners(timing: StreamTiming): string {
  const counts = new Map<string, number>();
  for (const owner of timing.longTaskOwners) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  return [...counts].map(([owner, n]) => `${n} ${owner}`).join(", ");
}
