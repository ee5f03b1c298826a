// `models pull`: resolve the name, download into `<file>.part` beside the models, check it, and
// rename it into place only when whole. The running server lists the new file on its next scan.
import { existsSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { LockHeldError, withFileLock } from "../../auth/file-lock";
import { downloadFile } from "./download-file";
import type { DownloadProgress } from "./download-progress";
import { mirrorBase, resolveModelSource, type ModelSource } from "./model-source";
import { modelPresets, type ModelPreset } from "./presets";
import { PullError } from "./pull-error";
import { RecordedHashes } from "./recorded-hashes";

export interface PullOptions {
  /** A preset name, owner/repo/file.gguf, or a URL of a .gguf file. */
  readonly spec: string;
  readonly modelsDir: string;
  /** The --mirror option or setting; empty falls back to WISP_MODEL_MIRROR, then the hub. */
  readonly mirror?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly onStart?: (source: ModelSource & { readonly partFile: string }) => void;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly signal?: AbortSignal;
  readonly presets?: readonly ModelPreset[];
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

export interface PullResult {
  /** The model's id as the server lists it (the file name without .gguf). */
  readonly modelId: string;
  readonly file: string;
  /** True when the file was already in the folder: nothing was downloaded. */
  readonly alreadyPresent: boolean;
  readonly bytes?: number;
  readonly sha256?: string;
  /** What the hash was checked against: the publisher's, an earlier download's, or nothing yet (recorded now). */
  readonly checked?: "published" | "recorded" | "first";
  readonly resumedFrom?: number;
  readonly requests?: number;
}

export async function pullModel(options: PullOptions): Promise<PullResult> {
  const base = mirrorBase(options.mirror, options.env ?? {});
  const source = resolveModelSource(options.spec, base, options.presets ?? modelPresets);
  const file = path.join(options.modelsDir, source.fileName);
  const modelId = source.fileName.replace(/\.gguf$/i, "");
  if (existsSync(file)) return { modelId, file, alreadyPresent: true };
  try {
    await mkdir(options.modelsDir, { recursive: true });
  } catch (error) {
    throw new PullError("io", `cannot create the models folder ${options.modelsDir}: ${(error as Error).message}`);
  }
  const partFile = `${file}.part`;
  // One download per file at a time (two editor windows, a terminal beside them): both would append
  // to the same part. A lock whose owner died is taken over; a live one is never stale, however long.
  try {
    return await withFileLock(`${partFile}.lock`, () => download(options, source, file, partFile), { waitMs: 0, staleMs: Number.POSITIVE_INFINITY });
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error;
    throw new PullError("busy", `${source.fileName} is being downloaded already (another window or terminal); wait for that download, or cancel it and pull again`);
  }
}

async function download(options: PullOptions, source: ModelSource, file: string, partFile: string): Promise<PullResult> {
  const modelId = source.fileName.replace(/\.gguf$/i, "");
  // A download that held the lock just before may have finished it.
  if (existsSync(file)) return { modelId, file, alreadyPresent: true };
  const hashes = new RecordedHashes(options.modelsDir);
  const published = source.preset?.sha256?.value.toLowerCase();
  const recorded = await hashes.get(source.fileName);
  options.onStart?.({ ...source, partFile });
  const result = await downloadFile({
    url: source.url,
    partFile,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const expected = published ?? recorded?.sha256;
  if (expected !== undefined && result.sha256 !== expected) {
    await rm(partFile, { force: true });
    const against = published ? "the published SHA-256" : `the SHA-256 of its first download (recorded in ${hashes.file}; if the publisher changed the file, delete its entry there and pull again)`;
    throw new PullError("checksum", `${source.fileName} does not match ${against}: expected ${expected}, got ${result.sha256}; nothing was kept`);
  }
  await syncFile(partFile);
  await rename(partFile, file);
  if (!recorded) await hashes.record(source.fileName, { sha256: result.sha256, bytes: result.bytes, url: source.url, recorded: new Date().toISOString() });
  return {
    modelId,
    file,
    alreadyPresent: false,
    bytes: result.bytes,
    sha256: result.sha256,
    checked: published ? "published" : recorded ? "recorded" : "first",
    resumedFrom: result.resumedFrom,
    requests: result.requests,
  };
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
