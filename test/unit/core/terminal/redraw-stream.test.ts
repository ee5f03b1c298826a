import assert from "node:assert/strict";
import { RedrawStream } from "../../../../src/core/terminal/redraw-stream";

describe("a command's output made plain as it streams", () => {
  it("keeps a growing line's last drawing, and a line whose \\r\\n two reads split", () => {
    const stream = new RedrawStream();
    assert.equal(stream.push("\x1b[32mok\x1b[0m 1\n 10%\r 50%"), "ok 1\n");
    assert.equal(stream.preview(), " 50%");
    assert.equal(stream.push("\r100%\r"), "");
    assert.equal(stream.push("\ndone"), "100%\n");
    assert.equal(stream.end(), "done");
  });

  it("keeps only a spinner's last frame when it redraws after a move to the first column, without \\r (ora, log-update, readline's cursorTo)", () => {
    const stream = new RedrawStream();
    let output = stream.push("$ npx create-app shop\n");
    // A frame every 80 ms for 5 minutes: ESC[2K erases the line, ESC[G goes back to its start.
    for (let i = 0; i < 3750; i++) {
      output += stream.push(`\x1b[2K\x1b[G${"⠋⠙⠹⠸"[i % 4]} Installing dependencies (${i} of 3750)`);
      assert.equal(stream.preview(), `${"⠋⠙⠹⠸"[i % 4]} Installing dependencies (${i} of 3750)`);
    }
    output += stream.push("\x1b[2K\x1b[G✔ Installed 312 packages\n");
    output += stream.end();
    // Kept whole, the frames passed the longest line kept and went out as a line of their own, glued to what came next.
    assert.equal(output, "$ npx create-app shop\n✔ Installed 312 packages\n");
  });
});
