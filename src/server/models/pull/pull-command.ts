// The terminal front end of `wisp-server models pull` and `models presets`: a progress bar that
// redraws in place on a terminal, and one line per tenth of the file when the output is a log.
import { describeProgress, formatBytes, type DownloadProgress } from "./download-progress";
import { pullModel } from "./pull-model";
import { modelPresets } from "./presets";

export interface PullTerminal {
  readonly print: (line: string) => void;
  /** Progress output (stderr), and whether it is a terminal that can redraw a line. */
  readonly progress: { write(text: string): void; readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}

const barWidth = 30;

export async function runPull(command: { spec: string; modelsDir: string; mirror?: string }, out: PullTerminal): Promise<void> {
  let lastTenth = -1;
  const show = (p: DownloadProgress) => {
    if (out.progress.isTTY) {
      const done = p.total ? Math.min(barWidth, Math.floor((p.received / p.total) * barWidth)) : 0;
      out.progress.write(`\r[${"#".repeat(done)}${"-".repeat(barWidth - done)}] ${describeProgress(p)}\u001b[K`);
      return;
    }
    const tenth = p.total ? Math.floor((p.received / p.total) * 10) : 0;
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    out.progress.write(`progress ${describeProgress(p)}\n`);
  };
  const result = await pullModel({
    ...command,
    env: out.env,
    ...(out.signal ? { signal: out.signal } : {}),
    onStart: (source) => {
      out.print(`downloading ${source.url}`);
      out.print(`into ${source.partFile} (renamed to ${source.fileName} when complete and checked)`);
    },
    onProgress: show,
  });
  if (out.progress.isTTY && !result.alreadyPresent) out.progress.write("\n");
  if (result.alreadyPresent) {
    out.print(`${result.file} is already there: nothing downloaded (delete it to download again)`);
  } else {
    if (result.resumedFrom) out.print(`resumed after ${formatBytes(result.resumedFrom)} from an earlier attempt`);
    const check = { published: "matches the published SHA-256", recorded: "matches the SHA-256 of its first download", first: "recorded for later downloads" }[result.checked ?? "first"];
    out.print(`sha256 ${result.sha256} (${check})`);
    out.print(`saved ${result.file} (${formatBytes(result.bytes ?? 0)}${result.requests && result.requests > 1 ? `, ${result.requests} requests` : ""})`);
  }
  out.print(`model id: ${result.modelId} (a running server lists it now)`);
}

export function presetTable(): string[] {
  const rows = modelPresets.map((p) => [p.name, p.role, `~${formatBytes(p.approxBytes)}`, `~${p.ramGb} GB`, p.licence, `${p.repo}/${p.file}`]);
  const header = ["NAME", "FOR", "DOWNLOAD", "RAM", "LICENCE", "FILE"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "));
}
