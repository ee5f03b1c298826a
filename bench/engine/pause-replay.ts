// A recorded typing session replayed at its own rhythm against one completion client, a request
// at each pause (the user stops at least pauseMs after a key), timing how long each pause waits
// for its first line. Keys the session types along a suggestion (typeThrough) are skipped: the
// comparison is of the servers, not of what each client does with its own suggestions.
import { AutoClosingEditor } from "../../test/harness/auto-closing-editor";
import { pauseMs, type Segment, type Session } from "../typing/replay";

/** The editor's state at a pause or when a file is opened. */
export interface EditorState {
  readonly segment: Segment;
  readonly text: string;
  readonly cursor: number;
}

export interface PauseClient {
  /** Completion requests sent so far. */
  readonly sent: number;
  /** A file was opened (clients that keep a ring of extra context take a chunk of it). */
  opened(state: EditorState): void;
  /** A key was typed: a request it supersedes is cancelled, or not, as the client does. */
  keystroke(): void;
  /** The request at a pause: ms until its first line, or undefined when it was cancelled or not sent. */
  pause(state: EditorState): Promise<number | undefined>;
}

export interface PauseStats {
  pauses: number;
  /** ms from each answered pause to its first line. */
  latencies: number[];
  /** The same for the pauses answered before the user typed on (an editor drops a later answer). */
  inTime: number[];
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Replays `session`, its first `maxKeys` keys at most. `rhythm: false` sends the same requests with
 * no wait between keys, each pause's answer awaited before the next key (none cancelled): each
 * request's own time, where a loaded machine would make the user type on before answers came.
 */
export async function replayPauses(session: Session, texts: ReadonlyMap<string, string>, client: PauseClient, maxKeys = Infinity, { rhythm = true } = {}): Promise<PauseStats> {
  const stats: PauseStats = { pauses: 0, latencies: [], inTime: [] };
  let keys = 0;
  let typed = 0;
  for (const segment of session.segments) {
    const original = texts.get(segment.file)!;
    const editor = new AutoClosingEditor(original.slice(0, segment.offset) + original.slice(segment.offset + segment.removeLength), segment.offset, segment.languageId);
    const state = (): EditorState => ({ segment, text: editor.text, cursor: editor.cursor });
    client.opened(state());
    const pending: Promise<void>[] = [];
    for (const [i, key] of segment.keys.entries()) {
      if (keys++ >= maxKeys) break;
      if (rhythm) await sleep(key.delayMs);
      if ("typeThrough" in key) continue;
      typed++;
      client.keystroke();
      if ("backspace" in key) for (let n = 0; n < key.backspace; n++) editor.backspace();
      else if (key.insert.startsWith("\n")) editor.enter(key.insert);
      else for (const ch of key.insert) editor.type(ch);
      const next = segment.keys[i + 1];
      if (next !== undefined && next.delayMs < pauseMs) continue;
      stats.pauses++;
      const at = typed;
      const answered = client.pause(state()).then((ms) => {
        if (ms === undefined) return;
        stats.latencies.push(ms);
        if (typed === at) stats.inTime.push(ms);
      });
      if (rhythm) pending.push(answered);
      else await answered;
    }
    await Promise.all(pending); // the user reads the last suggestion before switching files
  }
  return stats;
}
