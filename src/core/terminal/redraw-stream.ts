/**
 * A command's output as it streams in, turned into the text a terminal would show: each complete
 * line through plainText (colours and other escapes removed, a line redrawn after \r as last
 * drawn), and of the line still growing only its last drawing kept. A progress meter (curl's,
 * ffmpeg's, rsync --progress) writes a frame a second after \r without a line break: kept whole,
 * its frames filled the output and pushed what the command printed before into the cut middle.
 */
import { plainText } from "./terminal-command";

export class RedrawStream {
  private pending = "";

  constructor(private readonly maxLine = 64 * 1024) {}

  /** The plain text of the lines `chunk` completes; the growing last line waits, its last drawing kept. */
  push(chunk: string): string {
    const text = this.pending + chunk;
    let end = text.lastIndexOf("\n") + 1;
    if (text.length - end > this.maxLine) end = text.length;
    this.pending = lastDrawing(text.slice(end));
    return end === 0 ? "" : plainText(text.slice(0, end));
  }

  /** The line still growing, as it shows now. */
  preview(): string {
    return plainText(this.pending);
  }

  /** What is left (a last line without its line break), plain. */
  end(): string {
    const rest = this.preview();
    this.pending = "";
    return rest;
  }
}

/** What starts a line's drawing again: \r, or a move to the first column (ESC[G, ESC[1G: readline's cursorTo, ora, log-update). */
const redrawStart = /\r|\x1b\[[01]?G/g;

/**
 * The line from its last redraw start that something follows (one at its end is kept: \r\n may be
 * split between reads). Spinners redraw after ESC[G without \r: kept whole, their frames made every
 * chunk's preview read the growing line again (13 s of the extension host for a 5-minute spinner).
 */
function lastDrawing(line: string): string {
  const starts = [...line.matchAll(redrawStart)];
  let next = line.length;
  for (let i = starts.length - 1; i >= 0; i--) {
    const start = starts[i]!;
    if (start.index + start[0].length < next) return line.slice(start.index);
    next = start.index;
  }
  return line;
}
