import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { StopMarker } from "../../../src/extension/local-engine/stop-marker";
import { TempDirs } from "../../harness/temp-dirs";
import { waitFor } from "../../harness/wait-for";

describe("local server: Wisp: Stop Local Server said in one of two windows", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());

  it("holds in the other window while the stopping window is open, until a Start in any window; a closed window's stop does not", async () => {
    const file = join(temp.make("stop-marker"), "globalStorage", "local-server-stopped.json");
    // Window A's extension host: a process of its own, closed later.
    const hostA = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((resolve) => hostA.once("spawn", resolve));
    try {
      const windowA = new StopMarker(file, hostA.pid);
      const windowB = new StopMarker(file);
      assert.equal(windowB.byOtherWindow(), undefined, "nothing stopped yet");
      windowA.mark();
      assert.equal(windowB.byOtherWindow(), hostA.pid, "window B leaves the server stopped");
      assert.equal(windowA.byOtherWindow(), undefined, "window A knows its own stop");
      windowB.clear();
      assert.equal(windowB.byOtherWindow(), undefined, "Start Local Server in window B");
      windowA.mark();
      hostA.kill();
      await waitFor("window A closed", () => windowB.byOtherWindow(), (pid) => pid === undefined);
    } finally {
      hostA.kill();
    }
  });
});
