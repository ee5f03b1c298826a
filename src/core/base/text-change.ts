/** One change to a document's text: `length` characters at `offset` (in the text before it) replaced by `text`. */
export interface TextChange {
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

/** `text` with `change` made. */
export function applyChange(text: string, change: TextChange): string {
  return text.slice(0, change.offset) + change.text + text.slice(change.offset + change.length);
}

/** An editor event's changes in the order to make them one by one: from the end backwards, so every offset still refers to the text as it was. */
export function lastFirst<T extends TextChange>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => b.offset - a.offset);
}
