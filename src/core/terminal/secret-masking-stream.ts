/**
 * Output masked as it streams in, before anything keeps only its start and end: each chunk's
 * complete lines are masked together, and a private key block open at a chunk's end stays open
 * for the next, so its body is masked even when its BEGIN line is later cut away. A line waits
 * for its end up to `maxLine` characters, so memory stays bounded whatever the command prints.
 */
import { keyBegin, keyEnd, mask, maskSecrets } from "./mask-secrets";

export class SecretMaskingStream {
  private pending = "";
  private inKey = false;

  constructor(private readonly maxLine = 64 * 1024) {}

  /** The masked text of the lines `chunk` completes; the unfinished last line waits for the next chunk. */
  push(chunk: string): string {
    const text = this.pending + chunk;
    let end = text.lastIndexOf("\n") + 1;
    if (text.length - end > this.maxLine) end = text.length;
    this.pending = text.slice(end);
    return this.maskLines(text.slice(0, end));
  }

  /** What is left (a last line without its line break), masked. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    return this.maskLines(rest);
  }

  /**
   * The unfinished last line masked as it stands, for a view while it grows (push and end still
   * decide what it becomes); `line` when the growing line is held before this stream.
   */
  preview(line = this.pending): string {
    if (this.inKey) return "";
    const begin = line.search(keyBegin);
    return begin < 0 ? maskSecrets(line) : `${maskSecrets(line.slice(0, begin))}${mask}`;
  }

  /** Plain lines masked together (a `password:` and its value on the next line still meet); a key block as one [masked]. */
  private maskLines(text: string): string {
    const out: string[] = [];
    let plain = "";
    for (const line of text.split(/(?<=\n)/)) {
      if (!this.inKey && !keyBegin.test(line)) {
        plain += line;
        continue;
      }
      out.push(maskSecrets(plain));
      plain = "";
      const begin = this.inKey ? 0 : line.search(keyBegin);
      const before = this.inKey ? "" : `${maskSecrets(line.slice(0, begin))}${mask}`;
      const end = keyEnd.exec(line.slice(begin));
      this.inKey = end === null;
      const after = end === null ? "" : maskSecrets(line.slice(begin + end.index + end[0].length).replace(/\n$/, ""));
      // The key's body and END lines leave nothing: one [masked] stands for the block, as maskSecrets writes it.
      if (before + after !== "") out.push(`${before}${after}${line.endsWith("\n") ? "\n" : ""}`);
    }
    out.push(maskSecrets(plain));
    return out.join("");
  }
}
