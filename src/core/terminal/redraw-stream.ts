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

/** The line from its last \r that something follows (a \r at its end is kept: \r\n may be split between reads). */
function lastDrawing(line: string): string {
  const frames = line.split("\r");
  let last = frames.length - 1;
  while (last > 0 && frames[last] === "") last--;
  return frames.slice(last).join("\r");
}
