// Replays a recorded typing session through a completion pipeline, the way VS Code drives an
// inline completion provider: every keystroke cancels the previous call and asks again.
import { readFileSync } from "node:fs";
import path from "node:path";
import { maxSuffixChars, prefixStartOffset } from "../../src/core/completion/document-window";
import type { CompletionInput, CompletionOutcome } from "../../src/core/completion/types";
import { AutoClosingEditor } from "../../test/harness/auto-closing-editor";

export type Key = { delayMs: number } & ({ insert: string } | { backspace: number } | { typeThrough: number });

export interface Segment {
  file: string;
  path: string;
  languageId: string;
  offset: number;
  removeLength: number;
  keys: Key[];
}

export interface Session {
  keystrokes: number;
  segments: Segment[];
}

export interface Completer {
  complete(input: CompletionInput, signal: AbortSignal): Promise<CompletionOutcome>;
  /** A file was opened with the cursor at `input` (an editor warms the prompt there). */
  opened?(input: CompletionInput): void;
}

export interface ReplayStats {
  keystrokes: number;
  /** Outcomes by kind and reason/source, e.g. "shown:type-through", "empty:model-empty". */
  outcomes: Record<string, number>;
  /** Time from the last key before a pause to ghost text, for pauses that got some. */
  pauseLatencies: number[];
  pauses: number;
  typeThroughKeys: number;
  typeThroughServed: number;
  /** The input at each pause, to measure the server alone on the same requests. */
  pauseInputs: CompletionInput[];
}

/** A pause: the user stops at least this long after a key. */
export const pauseMs = 500;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export function loadSession(dir: string): { session: Session; texts: Map<string, string> } {
  const session = JSON.parse(readFileSync(path.join(dir, "session.json"), "utf8")) as Session;
  const texts = new Map(session.segments.map((s) => [s.file, readFileSync(path.join(dir, s.file), "utf8")]));
  return { session, texts };
}

export async function replay(session: Session, texts: Map<string, string>, completer: Completer): Promise<ReplayStats> {
  const stats: ReplayStats = { keystrokes: 0, outcomes: {}, pauseLatencies: [], pauses: 0, typeThroughKeys: 0, typeThroughServed: 0, pauseInputs: [] };
  const pending: Array<Promise<void>> = [];
  let controller: AbortController | undefined;
  let shown: { version: number; text: string } | undefined;

  for (const segment of session.segments) {
    const original = texts.get(segment.file) as string;
    // The editor's text as VS Code keeps it with its default settings: brackets and quotes auto-closed.
    const editor = new AutoClosingEditor(original.slice(0, segment.offset) + original.slice(segment.offset + segment.removeLength), segment.offset, segment.languageId);
    let version = 0;
    const input = (): CompletionInput => segmentInput(segment, editor.text, editor.cursor);
    /** One keystroke's provider call; `onOutcome` sees how it ended. */
    const trigger = (onOutcome?: (o: CompletionOutcome) => void) => {
      stats.keystrokes++;
      controller?.abort();
      controller = new AbortController();
      const at = version;
      const request = input();
      pending.push(
        completer.complete(request, controller.signal).then((o) => {
          const key = o.kind === "shown" ? `shown:${o.source}` : o.kind === "empty" ? `empty:${o.reason}` : o.kind === "error" ? `error:${o.errorKind}` : o.kind;
          stats.outcomes[key] = (stats.outcomes[key] ?? 0) + 1;
          if (o.kind === "shown") shown = { version: at, text: o.text };
          onOutcome?.(o);
        }),
      );
      return request;
    };
    const type = (text: string) => {
      if (text.startsWith("\n")) editor.enter(text); // Enter, with the indentation the editor gave the line
      else for (const ch of text) editor.type(ch);
      version++;
    };
    const erase = (n: number) => {
      for (let i = 0; i < n; i++) editor.backspace();
      version++;
    };
    completer.opened?.(input());

    for (const [i, key] of segment.keys.entries()) {
      await sleep(key.delayMs);
      if ("typeThrough" in key) {
        // The user waits for the suggestion (a few seconds at most), then types along with it.
        for (let waited = 0; shown?.version !== version && waited < 4000; waited += 20) await sleep(20);
        const ghost = shown?.version === version ? shown.text : "";
        // Along with it, not all of it: the last character leaves nothing to show.
        const along = ghost.slice(0, Math.min(key.typeThrough, ghost.length - 1));
        for (const ch of along) {
          await sleep(120);
          type(ch);
          stats.typeThroughKeys++;
          trigger((o) => {
            if (o.kind === "shown" && o.source !== "network") stats.typeThroughServed++;
          });
        }
        for (let n = 0; n < along.length; n++) {
          await sleep(100);
          erase(1);
          trigger();
        }
        continue;
      }
      if ("insert" in key) type(key.insert);
      else erase(key.backspace);
      const next = segment.keys[i + 1];
      const pause = next === undefined || next.delayMs >= pauseMs;
      const started = performance.now();
      const request = trigger(
        pause
          ? (o) => {
              if (o.kind === "shown") stats.pauseLatencies.push(performance.now() - started);
            }
          : undefined,
      );
      if (pause) {
        stats.pauses++;
        stats.pauseInputs.push(request);
      }
    }
    await sleep(3000); // the pause at the end of the segment
  }
  controller?.abort();
  await Promise.all(pending);
  return stats;
}

/** The pipeline's input for a cursor at `cursor` in `doc`, as the editor adapter builds it. */
export function segmentInput(segment: Pick<Segment, "path" | "languageId">, doc: string, cursor: number): CompletionInput {
  const prefixOffset = prefixStartOffset(cursor);
  return {
    uri: `file:///bench/${segment.path}`,
    path: segment.path,
    languageId: segment.languageId,
    prefix: doc.slice(prefixOffset, cursor),
    prefixOffset,
    suffix: doc.slice(cursor, cursor + maxSuffixChars),
    indent: { insertSpaces: true, tabSize: 4 },
    manual: false,
  };
}
