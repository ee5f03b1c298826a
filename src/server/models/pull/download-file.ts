// Streams one URL into a `.part` file that survives interruptions: an existing part is continued with
// an HTTP range request, a connection cut mid-way is resumed at once (a few times), and the SHA-256
// and GGUF header are checked on the way. The caller renames the part into place once it is whole.
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rm, stat, statfs, truncate } from "node:fs/promises";
import path from "node:path";
import { continuation, formatBytes, progressAt, RateMeter, type DownloadProgress } from "./download-progress";
import { PullError } from "./pull-error";

export interface DownloadOptions {
  readonly url: string;
  readonly partFile: string;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly signal?: AbortSignal;
  /** Resumes after a cut connection, as long as each attempt makes progress. */
  readonly retries?: number;
  readonly now?: () => number;
  readonly fetch?: typeof fetch;
}

export interface DownloadResult {
  readonly sha256: string;
  readonly bytes: number;
  /** Bytes an earlier, interrupted pull had left. */
  readonly resumedFrom: number;
  /** Requests made, 1 when nothing was cut. */
  readonly requests: number;
}

const ggufMagic = Buffer.from("GGUF", "latin1");
const progressEveryMs = 250;

export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const { url, partFile, signal, retries = 3 } = options;
  // A steady clock: with the time of day set back, progress stopped for as long as it went back.
  const now = options.now ?? (() => performance.now());
  const fetchImpl = options.fetch ?? fetch;
  let hash = createHash("sha256");
  let have = await sizeOf(partFile);
  if (have > 0) await hashExisting(partFile, hash);
  const resumedFrom = have;
  const meter = new RateMeter();
  let total: number | undefined;
  let failures = 0;
  let requests = 0;
  let head = have >= ggufMagic.length ? ggufMagic : Buffer.alloc(0);
  if (have > 0 && !(await startsWithMagic(partFile))) {
    await truncate(partFile, 0);
    [have, hash, head] = [0, createHash("sha256"), Buffer.alloc(0)];
  }
  let lastReport = -Infinity;
  const report = (force = false) => {
    const at = now();
    const rate = meter.sample(have - resumedFrom, at);
    if (force || at - lastReport >= progressEveryMs) {
      lastReport = at;
      options.onProgress?.(progressAt(have, total, resumedFrom, rate));
    }
  };
  report(true);

  for (;;) {
    requests++;
    const before = have;
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, redirect: "follow", ...(signal ? { signal } : {}) });
    } catch (error) {
      throw signal?.aborted ? cancelled() : unreachable(url, error, have > 0);
    }
    if (response.status === 416 && have > 0) {
      // The part is no prefix of the file any more (it changed on the server): start over.
      await response.body?.cancel();
      await truncate(partFile, 0);
      [have, hash, head] = [0, createHash("sha256"), Buffer.alloc(0)];
      if (++failures > retries) throw new PullError("http", `${url} refused every range request (HTTP 416)`);
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw httpError(url, response.status);
    }
    const next = continuation(have, response.status, response.headers);
    if (!next.append && have > 0) {
      await truncate(partFile, 0);
      [have, hash, head] = [0, createHash("sha256"), Buffer.alloc(0)];
    }
    total = next.total ?? total;
    if (total !== undefined) await ensureSpace(path.dirname(partFile), total - have, have);

    const handle = await open(partFile, have > 0 ? "a" : "w");
    let cut: unknown;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (head.length < ggufMagic.length) {
          head = Buffer.concat([head, chunk]).subarray(0, ggufMagic.length);
          if (!ggufMagic.subarray(0, head.length).equals(head)) throw notGguf(url, head);
        }
        await handle.write(chunk);
        hash.update(chunk);
        have += chunk.length;
        report();
      }
    } catch (error) {
      if (error instanceof PullError) {
        await handle.close();
        await rm(partFile, { force: true });
        throw error;
      }
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") {
        // What arrived is kept (a write cut short too: a resume continues from the part's size).
        await handle.close();
        have = await sizeOf(partFile);
        throw new PullError("disk-full", `the disk is full: ${path.dirname(partFile)} has no room for the rest of the model (${total === undefined ? "size unknown" : formatBytes(total)})${keptNote(have)}`);
      }
      cut = error;
    }
    await handle.close();
    if (signal?.aborted) throw cancelled();
    if (cut === undefined && (total === undefined || have >= total)) break;
    // The connection ended early: continue where it stopped while attempts make progress.
    failures = have > before ? 0 : failures + 1;
    if (failures > retries) throw unreachable(url, cut ?? new Error(`the connection closed after ${formatBytes(have)} of ${formatBytes(total ?? 0)}`), true);
  }
  report(true);
  if (total !== undefined && have !== total) {
    await rm(partFile, { force: true });
    throw new PullError("size", `${url} sent ${have} bytes where it announced ${total}; nothing was kept, pull again`);
  }
  if (head.length < ggufMagic.length) {
    await rm(partFile, { force: true });
    throw notGguf(url, head);
  }
  return { sha256: hash.digest("hex"), bytes: have, resumedFrom, requests };
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

async function hashExisting(file: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
}

async function startsWithMagic(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(ggufMagic.length), 0, ggufMagic.length, 0);
    return bytesRead === ggufMagic.length && buffer.equals(ggufMagic);
  } finally {
    await handle.close();
  }
}

/** Refuses before writing when the folder's file system cannot hold what is still to come; the part is kept. */
async function ensureSpace(dir: string, needed: number, have: number): Promise<void> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (needed <= free) return;
  const next = have > 0 ? keptNote(have) : "; free some space or choose another models folder";
  throw new PullError("disk-full", `not enough disk space in ${dir}: the model needs ${formatBytes(needed)} more, ${formatBytes(free)} is free${next}`);
}

function keptNote(have: number): string {
  return have > 0 ? `; the ${formatBytes(have)} already downloaded is kept: free some space and pull again to resume` : "; free some space and pull again";
}

function httpError(url: string, status: number): PullError {
  if (status === 404) return new PullError("http", `not found (HTTP 404): ${url}; check the name, or that the mirror has this file`);
  if (status === 401 || status === 403) return new PullError("http", `access refused (HTTP ${status}): ${url}; the file may need a licence accepted on the hub, or a mirror`);
  return new PullError("http", `the server answered HTTP ${status} for ${url}`);
}

function unreachable(url: string, error: unknown, resumable: boolean): PullError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  const origin = new URL(url).origin;
  const rest = resumable ? "; what arrived is kept: pull again to resume" : "; check the network, or set a mirror (--mirror, WISP_MODEL_MIRROR)";
  return new PullError("unreachable", `cannot download from ${origin} (${detail})${rest}`);
}

function notGguf(url: string, head: Buffer): PullError {
  const shown = JSON.stringify(head.toString("latin1"));
  return new PullError("not-gguf", `${url} is not a GGUF model file (it starts with ${shown}, not "GGUF"); nothing was kept`);
}

function cancelled(): PullError {
  return new PullError("cancelled", "the download was cancelled; what arrived is kept: pull again to resume");
}
