import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireFileLock, LockHeldError } from "../../../src/server/auth/file-lock";

describe("the file lock a crashed holder left", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "wisp-lock-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is taken over at once when its holder is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(join(dir, "keys.lock"), gone);
    const release = await acquireFileLock(join(dir, "keys.lock"), { waitMs: 0 });
    await release();
  });

  it("is taken over when its pid is now another process's (a start time that differs), and held while its holder lives", async () => {
    writeFileSync(join(dir, "reused.lock"), `${process.pid} 1`);
    await (await acquireFileLock(join(dir, "reused.lock"), { waitMs: 0 }))();
    const release = await acquireFileLock(join(dir, "held.lock"));
    try {
      await assert.rejects(acquireFileLock(join(dir, "held.lock"), { waitMs: 50 }), LockHeldError);
    } finally {
      await release();
    }
  });
});
