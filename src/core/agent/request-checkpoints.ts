/**
 * Checkpoints per request of an agent conversation: for each request (the user's message), every
 * file its task wrote, as it was before the request's first write to it. Restoring the checkpoint
 * of request k puts each file that request k or a later one changed back to its state before the
 * earliest of them, removes those requests, and keeps what it replaced, so that Redo can bring
 * the files and the requests back until the conversation goes on. Plain JSON data: file contents
 * are named by a key (their hash), and the extension keeps the bytes.
 */
import type { ChatTurn } from "../chat/conversation";

/** A file's state: absent, or present with the bytes stored under `blob` (their hash). */
export type FileRef = { readonly existed: false } | { readonly existed: true; readonly blob: string };

/** A state as a comparable key: the content's hash, or null for no file. */
export type StateKey = string | null;

export interface RequestFile {
  readonly path: string;
  /** The file before the request's first write to it. */
  readonly before: FileRef;
  /** What the request's last write left (undefined while none finished), to notice later changes by hand. */
  readonly after?: StateKey;
}

export interface RequestCheckpoint {
  /** The user turn of the request. */
  readonly requestId: string;
  /** The answer turn (the task) that made the changes. */
  readonly answerId: string;
  readonly files: readonly RequestFile[];
}

/** What a restore replaced: the requests and turns it removed, and each file as it was then. */
export interface RedoRecord {
  readonly requestId: string;
  /** The chat's last turn right after the restore ("" for none): Redo is only possible while it still is. */
  readonly anchor: string;
  readonly turns: readonly ChatTurn[];
  readonly requests: readonly RequestCheckpoint[];
  readonly files: readonly { readonly path: string; readonly state: FileRef; readonly restored: StateKey }[];
}

export interface ChatCheckpoints {
  readonly requests: readonly RequestCheckpoint[];
  /** Newest last: Redo undoes the latest restore first. */
  readonly redo: readonly RedoRecord[];
}

export interface RestoreStep {
  readonly path: string;
  /** The state it goes back to. */
  readonly target: FileRef;
  /** What the agent's last write left; the file differs now when someone changed it since. */
  readonly expected: StateKey;
}

export const emptyCheckpoints: ChatCheckpoints = { requests: [], redo: [] };

export function keyOf(ref: FileRef): StateKey {
  return ref.existed ? ref.blob : null;
}

/** A new request starts: it gets its checkpoint, and what Redo could bring back is given up. */
export function beginRequest(cp: ChatCheckpoints, requestId: string, answerId: string): ChatCheckpoints {
  if (cp.requests.some((r) => r.requestId === requestId)) return { ...cp, redo: [] };
  return { requests: [...cp.requests, { requestId, answerId, files: [] }], redo: [] };
}

/** The file before the request's first write; later writes of the same request keep the first. */
export function rememberBefore(cp: ChatCheckpoints, requestId: string, path: string, before: FileRef): ChatCheckpoints {
  return mapRequest(cp, requestId, (r) => (r.files.some((f) => f.path === path) ? r : { ...r, files: [...r.files, { path, before }] }));
}

/** What the request's latest write (or the task's Undo) left in the file. */
export function recordAfter(cp: ChatCheckpoints, requestId: string, path: string, after: StateKey): ChatCheckpoints {
  return mapRequest(cp, requestId, (r) => ({ ...r, files: r.files.map((f) => (f.path === path ? { ...f, after } : f)) }));
}

/** The task's Undo put files back as they were before it: that is what they hold now. */
export function recordUndone(cp: ChatCheckpoints, answerId: string, paths?: readonly string[]): ChatCheckpoints {
  const request = cp.requests.find((r) => r.answerId === answerId);
  if (!request) return cp;
  return mapRequest(cp, request.requestId, (r) => ({ ...r, files: r.files.map((f) => (!paths || paths.includes(f.path) ? { ...f, after: keyOf(f.before) } : f)) }));
}

/** What the task (its answer turn) last left in each of its files (`paths`, or all): a file that differs was changed since. */
export function taskWrites(cp: ChatCheckpoints, answerId: string, paths?: readonly string[]): readonly { readonly path: string; readonly expected: StateKey }[] {
  const request = cp.requests.find((r) => r.answerId === answerId);
  // A write that never finished left the file as it was before it.
  return (request?.files ?? []).filter((f) => !paths || paths.includes(f.path)).map((f) => ({ path: f.path, expected: f.after !== undefined ? f.after : keyOf(f.before) }));
}

export function hasRequest(cp: ChatCheckpoints, requestId: string): boolean {
  return cp.requests.some((r) => r.requestId === requestId);
}

export function requestOf(cp: ChatCheckpoints, requestId: string): RequestCheckpoint | undefined {
  return cp.requests.find((r) => r.requestId === requestId);
}

/**
 * What restoring to before request `requestId` does: every file it or a later request wrote goes
 * back to its state before the earliest of them. Undefined when the request has no checkpoint.
 */
export function restorePlan(cp: ChatCheckpoints, requestId: string): { readonly steps: readonly RestoreStep[]; readonly requests: readonly RequestCheckpoint[] } | undefined {
  const index = cp.requests.findIndex((r) => r.requestId === requestId);
  if (index < 0) return undefined;
  const requests = cp.requests.slice(index);
  const steps = new Map<string, RestoreStep>();
  for (const request of requests) {
    for (const file of request.files) {
      const first = steps.get(file.path);
      // The first request to touch the file says what it goes back to; the last write says what it should hold now.
      // (A write that never finished left the file as it was before it.)
      steps.set(file.path, { path: file.path, target: first?.target ?? file.before, expected: file.after !== undefined ? file.after : keyOf(file.before) });
    }
  }
  return { steps: [...steps.values()], requests };
}

/** The checkpoints after restoring to before `requestId`, with what it replaced on top of the Redo stack. */
export function withRestored(cp: ChatCheckpoints, record: Omit<RedoRecord, "requests">): ChatCheckpoints {
  const index = cp.requests.findIndex((r) => r.requestId === record.requestId);
  if (index < 0) return cp;
  return { requests: cp.requests.slice(0, index), redo: [...cp.redo, { ...record, requests: cp.requests.slice(index) }] };
}

/** The restore Redo would undo, while the conversation has not gone on since (its last turn is still `lastTurnId`). */
export function redoRecord(cp: ChatCheckpoints, lastTurnId: string): RedoRecord | undefined {
  const top = cp.redo.at(-1);
  return top && top.anchor === lastTurnId ? top : undefined;
}

/** The checkpoints after Redo: the requests the restore removed are back. */
export function withRedone(cp: ChatCheckpoints): ChatCheckpoints {
  const top = cp.redo.at(-1);
  if (!top) return cp;
  return { requests: [...cp.requests, ...top.requests], redo: cp.redo.slice(0, -1) };
}

/** Every content key the checkpoints still need (the rest of the stored bytes can go). */
export function blobsOf(cp: ChatCheckpoints): Set<string> {
  const keys = new Set<string>();
  const add = (ref: FileRef) => ref.existed && keys.add(ref.blob);
  const addRequests = (requests: readonly RequestCheckpoint[]) => requests.forEach((r) => r.files.forEach((f) => add(f.before)));
  addRequests(cp.requests);
  for (const record of cp.redo) {
    addRequests(record.requests);
    record.files.forEach((f) => add(f.state));
  }
  return keys;
}

function mapRequest(cp: ChatCheckpoints, requestId: string, change: (r: RequestCheckpoint) => RequestCheckpoint): ChatCheckpoints {
  if (!cp.requests.some((r) => r.requestId === requestId)) return cp;
  return { ...cp, requests: cp.requests.map((r) => (r.requestId === requestId ? change(r) : r)) };
}
