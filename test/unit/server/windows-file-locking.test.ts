import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withFileLock } from "../../../src/server/auth/file-lock";
import { retryWhileBusy } from "../../../src/server/busy-retry";

const busy = (code: string) => Object.assign(new Error(`${code}: resource busy or locked`), { code });

describe("key store files on Windows: busy files and file systems without hard links", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "wisp-lock-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("tries a rename or removal again on Windows while another process holds the file open", async () => {
    for (const code of ["EPERM", "EACCES", "EBUSY"]) {
      let tries = 0;
      const result = await retryWhileBusy(async () => (++tries < 3 ? Promise.reject(busy(code)) : "replaced"), "win32", [1, 1, 1]);
      assert.equal(result, "replaced");
      assert.equal(tries, 3, code);
    }
  });

  it("gives up with the last error once the pauses are used up, and retries nothing else or elsewhere", async () => {
    let tries = 0;
    await assert.rejects(retryWhileBusy(async () => { tries++; throw busy("EBUSY"); }, "win32", [1, 1]), /EBUSY/);
    assert.equal(tries, 3);
    tries = 0;
    await assert.rejects(retryWhileBusy(async () => { tries++; throw busy("ENOENT"); }, "win32", [1, 1]), /ENOENT/);
    assert.equal(tries, 1);
    tries = 0;
    await assert.rejects(retryWhileBusy(async () => { tries++; throw busy("EPERM"); }, "linux", [1, 1]), /EPERM/);
    assert.equal(tries, 1, "EPERM means what it says off Windows");
  });

  it("locks with an exclusive create where hard links are refused, and still lets one holder in at a time", async () => {
    const lock = join(dir, "keys.json.lock");
    const noLinks = async () => { throw busy("EPERM"); };
    const order: string[] = [];
    const holder = (name: string) =>
      withFileLock(lock, async () => {
        order.push(`${name} in`);
        assert.equal(readFileSync(lock, "utf8").split(" ")[0], String(process.pid), "the lock names its owner");
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(`${name} out`);
      }, { link: noLinks, waitMs: 5_000 });
    await Promise.all([holder("a"), holder("b")]);
    // Whichever came first, the other waited for it to leave.
    const first = order[0]!.split(" ")[0]!;
    const second = first === "a" ? "b" : "a";
    assert.deepEqual(order, [`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
    assert.deepEqual(readdirSync(dir), [], "no lock or claim left behind");
  });

  it("fails on other link errors instead of taking the fallback", async () => {
    await assert.rejects(withFileLock(join(dir, "x.lock"), async () => "never", { link: async () => { throw busy("EIO"); } }), /EIO/);
  });
});
