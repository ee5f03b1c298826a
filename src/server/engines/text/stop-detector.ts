// Decides how much generated text may be shown: text that could still become a stop string (or an
// incomplete UTF-8 character) is held back until the next token settles it.

export interface StopScan {
  /** Text safe to emit so far (never includes a stop string). */
  visible: string;
  /** True once a stop string appeared: `visible` is final. */
  stopped: boolean;
  /** The stop string that ended the text. */
  stop?: string;
}

export function scanForStop(text: string, stops: readonly string[]): StopScan {
  let cut = -1;
  let found: string | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at !== -1 && (cut === -1 || at < cut)) [cut, found] = [at, stop];
  }
  if (cut !== -1) return { visible: text.slice(0, cut), stopped: true, stop: found };
  let hold = 0;
  for (const stop of stops) {
    for (let len = Math.min(stop.length - 1, text.length); len > hold; len--) {
      if (text.endsWith(stop.slice(0, len))) {
        hold = len;
        break;
      }
    }
  }
  // A replacement character at the end is a multi-byte character split across tokens.
  if (hold === 0 && text.endsWith("\uFFFD")) hold = 1;
  return { visible: text.slice(0, text.length - hold), stopped: false };
}
