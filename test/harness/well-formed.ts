/** Whether `text` is valid Unicode: no half of a surrogate pair alone (which servers refuse, and UTF-8 writes as U+FFFD). */
export function wellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
