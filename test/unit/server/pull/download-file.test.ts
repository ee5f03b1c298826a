import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { delay } from "../../../../src/core/base/delay";
import type { DownloadProgress } from "../../../../src/server/models/pull/download-progress";
import { downloadFile } from "../../../../src/server/models/pull/download-file";
import { settableTimeOfDay } from "../../../harness/settable-time-of-day";

describe("downloadFile when the system clock is set back mid-download (NTP, a laptop waking)", () => {
  const clockSet = settableTimeOfDay();
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "wisp-download-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("keeps reporting its progress", async () => {
    const chunk = (n: number) => (n === 0 ? Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(1020)]) : Buffer.alloc(1024, n));
    let sent = 0;
    // Three chunks 300 ms apart (more than the 250 ms between progress reports); the clock goes back an hour after the first.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 3) return controller.close();
        if (sent > 0) await delay(300);
        controller.enqueue(chunk(sent++));
        if (sent === 1) clockSet.shift(-3_600_000);
      },
    });
    const reports: DownloadProgress[] = [];
    await downloadFile({
      url: "https://models.example/m.gguf",
      partFile: path.join(dir, "m.gguf.part"),
      onProgress: (p) => reports.push(p),
      fetch: async () => new Response(body, { headers: { "content-length": "3072" } }),
    });
    const received = reports.map((p) => p.received);
    assert.ok(received.includes(2048), `progress shown at ${received.join(", ")} bytes: none while the second 300 ms chunk came`);
  });
});
