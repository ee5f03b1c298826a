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
});
