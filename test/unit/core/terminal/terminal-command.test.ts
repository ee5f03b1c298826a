import assert from "node:assert/strict";
import { outputTail, plainText, terminalAttachmentText, terminalLabel } from "../../../../src/core/terminal/terminal-command";

describe("a terminal command as the chat sends it", () => {
  it("removes escape sequences and resolves carriage returns", () => {
    assert.equal(plainText("\x1b]633;C\x07\x1b[31mError\x1b[0m: no\r\n10%\r50%\r100%\n"), "Error: no\n100%\n");
  });

  it("keeps the last lines within the limits, saying what was left out", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    assert.equal(outputTail(output, 3, 1000), "[… 97 earlier lines left out]\nline 97\nline 98\nline 99");
    assert.equal(outputTail(output, 50, 16), "[… 98 earlier lines left out]\nline 98\nline 99");
    assert.equal(outputTail("", 5, 100), "");
  });

  it("carries command, exit code, folder and output, masked", () => {
    const command = { commandLine: "API_TOKEN=abc123 ./deploy.sh", exitCode: 2, cwd: "/work/app", output: "\x1b[1mdeploying\x1b[0m\npassword: hunter2\nfailed\n", terminalName: "bash" };
    assert.equal(terminalAttachmentText(command, 50, 4000), "$ API_TOKEN=[masked] ./deploy.sh\n(exit code 2, in /work/app)\ndeploying\npassword: [masked]\nfailed");
    assert.equal(terminalLabel(command), 'Terminal "bash": API_TOKEN=[masked] ./deploy.sh, failed with exit code 2');
    assert.equal(terminalAttachmentText({ ...command, output: "", exitCode: undefined, cwd: undefined }, 5, 100), "$ API_TOKEN=[masked] ./deploy.sh\n(exit code not reported)\n(the terminal reported no output)");
  });
});
