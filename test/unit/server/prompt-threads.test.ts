import assert from "node:assert/strict";
import { parseCommand } from "../../../src/server/cli-args";
import { defaultPromptThreads } from "../../../src/server/engines/text/prompt-threads";

describe("prompt threads", () => {
  it("default: 1 below 4 cores, then half the cores, at most 8", () => {
    assert.deepEqual([1, 2, 3, 4, 6, 8, 16, 64].map(defaultPromptThreads), [1, 1, 1, 2, 3, 4, 8, 8]);
  });

  it("--threads-batch sets them, apart from --threads", () => {
    const command = parseCommand(["--threads", "1", "--threads-batch", "4"]);
    assert.ok(command.kind === "serve");
    assert.deepEqual([command.config.threads, command.config.threadsBatch], [1, 4]);
    assert.throws(() => parseCommand(["--threads-batch", "0"]), /--threads-batch must be a positive integer, got '0'/);
  });
});
