// The first suggestion in a file: the user opens it, reads for a moment, types up to their first
// pause. Cold, the server evaluates the whole prompt then; warmed (the editor sent a warm-up when
// the file was opened), it extends a prompt already evaluated.
import type { CompletionOutcome } from "../../src/core/completion/types";
import { AutoClosingEditor } from "../../test/harness/auto-closing-editor";
import { pauseMs, segmentInput, type Completer, type Session } from "./replay";

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * For each file of the session: opens it (telling the completer when `warm`), waits `readMs`,
 * types the segment's keys up to the first pause, and returns the time from the last key to the
 * pipeline's answer (shown or empty) per file.
 */
export async function firstSuggestionLatencies(session: Session, texts: Map<string, string>, completer: Completer, warm: boolean, readMs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (const segment of session.segments) {
    const original = texts.get(segment.file) as string;
    const editor = new AutoClosingEditor(original.slice(0, segment.offset) + original.slice(segment.offset + segment.removeLength), segment.offset, segment.languageId);
    if (warm) completer.opened?.(segmentInput(segment, editor.text, editor.cursor));
    await sleep(readMs);
    let controller: AbortController | undefined;
    let last: Promise<CompletionOutcome> | undefined;
    let lastKeyAt = 0;
    for (const [i, key] of segment.keys.entries()) {
      if (i > 0) await sleep(key.delayMs);
      if ("insert" in key) {
        if (key.insert.startsWith("\n")) editor.enter(key.insert);
        else for (const ch of key.insert) editor.type(ch);
      } else if ("backspace" in key) {
        for (let n = 0; n < key.backspace; n++) editor.backspace();
      } else continue;
      controller?.abort();
      controller = new AbortController();
      lastKeyAt = performance.now();
      last = completer.complete(segmentInput(segment, editor.text, editor.cursor), controller.signal);
      const next = segment.keys[i + 1];
      if (next === undefined || next.delayMs >= pauseMs) break;
    }
    const outcome = await last;
    if (outcome && outcome.kind !== "cancelled" && outcome.kind !== "debounced") latencies.push(performance.now() - lastKeyAt);
    controller?.abort();
  }
  return latencies;
}
