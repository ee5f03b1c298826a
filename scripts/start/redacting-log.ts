import type { WriteStream } from "node:fs";
import { redact } from "../../src/core/log/redact";
import type { OutputSink } from "./local-server";

/**
 * A log file that never receives a credential: output is written line by line, each line through
 * `redact` (keys, login tokens) with the secrets given. A partial last line waits for its end.
 */
export class RedactingLog implements OutputSink {
  private pending = "";

  constructor(private readonly file: WriteStream, private readonly secrets: readonly string[] = []) {}

  write(chunk: Buffer | string): void {
    const lines = (this.pending + chunk.toString()).split("\n");
    this.pending = lines.pop() ?? "";
    for (const line of lines) this.file.write(`${redact(line, this.secrets)}\n`);
  }

  end(): Promise<void> {
    if (this.pending !== "") this.file.write(`${redact(this.pending, this.secrets)}\n`);
    this.pending = "";
    return new Promise((done) => this.file.end(done));
  }
}
