import { applyChange, lastFirst, type TextChange } from "../base/text-change";

export type { TextChange };

/** A run of the user's typing: `oldText` became `newText`, which now starts at `offset` of the document. */
export interface Hunk {
  readonly uri: string;
  readonly offset: number;
  readonly oldText: string;
  readonly newText: string;
}

/** How many hunks are kept, across all documents, newest last. */
const keptHunks = 16;

/**
 * The user's recent edits per document, coalesced into hunks as they type: a change that touches
 * a hunk the user's latest change of its document made (one per cursor) grows it, any other starts
 * a new one. Wisp's own edits (accepted suggestions) move the hunks but are never recorded as typing. Keeps each open document's text,
 * so a hunk's old text is known whatever the editor reports.
 */
export class EditHistory {
  private readonly texts = new Map<string, string>();
  private hunks: Hunk[] = [];
  /**
   * Per document, the hunks the user's latest event made or grew, one per cursor: the next keystroke
   * grows them. Empty after Wisp's own edit: the user's next change there starts a new hunk.
   */
  private readonly live = new Map<string, Set<Hunk>>();

  /** Starts following a document (again): its history so far is forgotten. */
  open(uri: string, text: string): void {
    this.close(uri);
    this.texts.set(uri, text);
  }

  close(uri: string): void {
    this.texts.delete(uri);
    this.live.delete(uri);
    this.hunks = this.hunks.filter((h) => h.uri !== uri);
  }

  /** How many documents' text it keeps. */
  get documents(): number {
    return this.texts.size;
  }

  text(uri: string): string | undefined {
    return this.texts.get(uri);
  }

  /**
   * Applies one editor event's changes (offsets in the text before the event, not overlapping).
   * `own`: Wisp made them, so they shift the hunks but are not the user's typing.
   */
  change(uri: string, changes: readonly TextChange[], own = false): void {
    let text = this.texts.get(uri);
    if (text === undefined) return;
    const live = this.live.get(uri) ?? new Set<Hunk>();
    const made = new Set<Hunk>();
    for (const change of lastFirst(changes)) {
      const removed = text.slice(change.offset, change.offset + change.length);
      this.apply(uri, change, removed, own, text, live, made);
      text = applyChange(text, change);
    }
    this.texts.set(uri, text);
    this.live.set(uri, made);
  }

  /**
   * The latest event's changes of `uri` turn out not to be the user's (the file reloaded from disk,
   * told only after the event): the hunks it made are forgotten; the text keeps the changes.
   */
  disown(uri: string): void {
    const made = this.live.get(uri);
    if (made === undefined) return;
    this.hunks = this.hunks.filter((h) => !made.has(h));
    this.live.set(uri, new Set());
  }

  /** The latest hunk of `uri` that changed something, if the user has typed there since it was opened. */
  last(uri: string): Hunk | undefined {
    return this.hunks.findLast((h) => h.uri === uri && changes(h));
  }

  /** The latest hunks that changed something, across documents, newest last. */
  recent(): readonly Hunk[] {
    return this.hunks.filter(changes);
  }

  /**
   * One change of an event: `live`, the hunks the previous event made, and `made`, those this event
   * made so far, follow the hunks as they move; the change grows one of them that it touches.
   */
  private apply(uri: string, change: TextChange, removed: string, own: boolean, before: string, live: Set<Hunk>, made: Set<Hunk>): void {
    const end = change.offset + change.length;
    const delta = change.text.length - change.length;
    const next: Hunk[] = [];
    let grown: Hunk | undefined;
    for (const hunk of this.hunks) {
      const hunkEnd = hunk.offset + hunk.newText.length;
      const from = live.has(hunk) ? live : made.has(hunk) ? made : undefined;
      const growing = from !== undefined;
      from?.delete(hunk);
      if (hunk.uri !== uri || hunkEnd < change.offset) {
        next.push(hunk);
        from?.add(hunk);
      } else if (hunk.offset > end) {
        const moved = { ...hunk, offset: hunk.offset + delta };
        next.push(moved);
        from?.add(moved);
      } else if (growing && !own && grown === undefined) grown = grow(hunk, change, before);
      // An older hunk (or any hunk under Wisp's own edit) that the change cuts into no longer says what the user did.
    }
    this.hunks = next;
    const hunk = grown ?? (own ? undefined : { uri, offset: change.offset, oldText: removed, newText: change.text });
    if (hunk) {
      this.hunks.push(hunk);
      made.add(hunk);
    }
    if (this.hunks.length > keptHunks) this.hunks.splice(0, this.hunks.length - keptHunks);
  }
}

/**
 * Typing that ends where it began (a word typed and erased) is no edit; its hunk is kept, so that
 * typing on from there (`g(x)` retyped as `g(x) + g(x)`) still grows one hunk.
 */
function changes(hunk: Hunk): boolean {
  return hunk.oldText !== hunk.newText;
}

/** `hunk` with `change`, which touches or overlaps its new text, folded in. */
function grow(hunk: Hunk, change: TextChange, before: string): Hunk {
  const start = Math.min(hunk.offset, change.offset);
  const hunkEnd = hunk.offset + hunk.newText.length;
  const end = Math.max(hunkEnd, change.offset + change.length);
  const oldText = before.slice(start, hunk.offset) + hunk.oldText + before.slice(hunkEnd, end);
  const covered = before.slice(start, end);
  const from = change.offset - start;
  const newText = covered.slice(0, from) + change.text + covered.slice(from + change.length);
  return { uri: hunk.uri, offset: start, oldText, newText };
}
