import assert from "node:assert/strict";
import { withoutSensitiveDiffs } from "../../../../src/core/agent/sensitive-command";
import { outputTail, plainText, terminalAttachmentText, terminalFixPrompt, terminalLabel } from "../../../../src/core/terminal/terminal-command";
import { wellFormed } from "../../../harness/well-formed";

describe("a terminal command as the chat sends it", () => {
  it("removes escape sequences and resolves carriage returns", () => {
    assert.equal(plainText("\x1b]633;C\x07\x1b[31mError\x1b[0m: no\r\n10%\r50%\r100%\n"), "Error: no\n100%\n");
  });

  it("removes the character set escapes tput sgr0 writes (ESC ( B), which left '(B' after each coloured word", () => {
    assert.equal(plainText("\x1b[31merror\x1b(B\x1b[m: config.json is missing\n\x1b)0\x1b#8done"), "error: config.json is missing\ndone");
  });

  it("keeps the lines a program ends with \\r\\n, which the terminal receives as \\r\\r\\n (curl -i's headers, a CRLF file's cat)", () => {
    assert.equal(plainText("HTTP/1.1 404 Not Found\r\r\ncontent-type: text/html\r\r\n\r\r\nerror: the page is gone\r\n"), "HTTP/1.1 404 Not Found\ncontent-type: text/html\n\nerror: the page is gone\n");
    assert.equal(plainText("10%\r100%\r\r\ndone\r"), "100%\ndone");
  });

  it("shows a spinner's or a multi-line progress's last drawing, not every frame (ora, listr, log-update, readline's cursorTo, docker)", () => {
    // log-update erases the lines it drew (ESC[2K, ESC[1A each) and goes to the first column (ESC[G) before each frame.
    const erase = (lines: number) => `${"\x1b[2K\x1b[1A".repeat(lines - 1)}\x1b[2K\x1b[G`;
    const frames = ["⠋", "⠙", "⠹"].map((spinner, i) => `${erase(i === 0 ? 1 : 3)}${spinner} Installing\n  fetching react\n`).join("");
    assert.equal(plainText(`$ npm ci\n${frames}${erase(3)}✖ Install failed\nnpm ERR! code ENOTFOUND\n`).trimEnd(), "$ npm ci\n✖ Install failed\nnpm ERR! code ENOTFOUND");
    assert.equal(plainText("10%\x1b[1G50%\x1b[G100%\nerror: disk full\n"), "100%\nerror: disk full\n");
    // Layers redrawn in place: up three lines, each rewritten and erased to its end.
    const layers = (state: string) => ["a1", "b2", "c3"].map((id) => `${id}: ${state}\x1b[K\n`).join("");
    assert.equal(plainText(`${layers("Waiting")}\x1b[3A${layers("Downloading")}\x1b[3A${layers("Pull complete")}`), "a1: Pull complete\nb2: Pull complete\nc3: Pull complete\n");
  });

  it("moves down no further than the last line drawn, as a terminal's cursor stops at the screen's bottom (a size probe's ESC[999B)", () => {
    // Programs find the screen's size by moving far right and down and asking where the cursor is.
    assert.equal(plainText("$ ./setup\nchecking the terminal\n\x1b[999C\x1b[999B\x1b[6n\rerror: no TTY\n"), "$ ./setup\nchecking the terminal\nerror: no TTY\n");
    assert.equal(plainText("ok 1\n\x1b[1000000000Bfailed: 2 tests\n"), "ok 1\nfailed: 2 tests\n");
    // Within the lines drawn, down moves as before; ESC[E begins the next line.
    assert.equal(plainText("a\nb\nc\n\x1b[3Aa2\x1b[3Bend\x1b[1Enext\n"), "a2\nb\nc\nend\nnext\n");
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

  it("tells the model what an exit code a signal gave means (Ctrl+C, killed, SIGTERM, a crash), not the bare number", () => {
    const command = { terminalName: "bash", commandLine: "npm run build", exitCode: 137, cwd: undefined, output: "building" };
    assert.equal(terminalAttachmentText(command, 50, 4000), "$ npm run build\n(exit code 137 (killed by SIGKILL: often the out-of-memory killer))\nbuilding");
    assert.match(terminalAttachmentText({ ...command, exitCode: 130 }, 50, 4000), /\(exit code 130 \(killed by SIGINT: interrupted, as Ctrl\+C does\)\)/);
    assert.match(terminalAttachmentText({ ...command, exitCode: 143 }, 50, 4000), /\(exit code 143 \(killed by SIGTERM: asked to stop\)\)/);
    assert.match(terminalAttachmentText({ ...command, exitCode: 139 }, 50, 4000), /\(exit code 139 \(killed by SIGSEGV: a crash \(segmentation fault\)\)\)/);
    // A program's own code above 128 that no signal gives stays bare.
    assert.match(terminalAttachmentText({ ...command, exitCode: 255 }, 50, 4000), /\(exit code 255\)/);
  });

  it("says a command that still runs (a dev server) is running, with its output so far, not that its exit code was not reported", () => {
    const command = { commandLine: "npm run dev", exitCode: undefined, running: true, cwd: "/work/app", output: "listening on :3000\nGET /cart 500: TypeError: cart is undefined\n", terminalName: "bash" };
    assert.equal(terminalAttachmentText(command, 50, 4000), "$ npm run dev\n(still running, in /work/app)\nlistening on :3000\nGET /cart 500: TypeError: cart is undefined");
    assert.equal(terminalLabel(command), 'Terminal "bash": npm run dev, still running');
  });

  it("leaves out a sensitive file's changes from a git diff in colour the terminal showed, naming it, before the tail is cut", () => {
    const diff = (path: string, from: string, to: string) => `\x1b[1mdiff --git a/${path} b/${path}\x1b[m\n\x1b[1m--- a/${path}\x1b[m\n\x1b[1m+++ b/${path}\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-${from}\x1b[m\n\x1b[32m+${to}\x1b[m\n`;
    const command = { commandLine: "git diff --exit-code", exitCode: 1, cwd: "/work/app", output: diff(".env", "DB_CONN=old", "DB_CONN=hunter2") + diff("app.js", "const port = 1;", "const port = 2;"), terminalName: "bash" };
    const sent = terminalAttachmentText(command, 50, 4000, (output) => withoutSensitiveDiffs(output, (path) => path === ".env"));
    assert.ok(!sent.includes("hunter2") && sent.includes("+const port = 2;") && sent.includes("[the diff of .env is left out: it matches wisp.sensitiveFiles or .wispignore"), sent);
  });

  it("masks a secret whose start the tail leaves out: a private key's body, a long line's password", () => {
    const key = ["-----BEGIN RSA PRIVATE KEY-----", ...Array.from({ length: 30 }, (_, i) => `MIIEpAIBAAKCAQEAkeybody${i}`), "-----END RSA PRIVATE KEY-----"];
    const catKey = { commandLine: "cat deploy_key && ssh-add -", exitCode: 1, cwd: "/work/app", output: [...key, "Error loading key: invalid format"].join("\n"), terminalName: "bash" };
    const sent = terminalAttachmentText(catKey, 10, 4000);
    assert.ok(!sent.includes("keybody"), sent);
    assert.match(sent, /\[masked\]\nError loading key: invalid format$/);
    const json = { commandLine: "curl -s localhost/login", exitCode: 22, cwd: undefined, output: `${"x".repeat(10)}{"password":"hunter2-very-secret"}${"y".repeat(172)}`, terminalName: "bash" };
    // 200 characters of that 216-character line start inside "password".
    assert.match(outputTail(json.output, 10, 200), /^word":"hunter2/);
    const cut = terminalAttachmentText(json, 10, 200);
    assert.ok(!cut.includes("hunter2"), cut);
  });

  it("tells the model the shell the corrected command runs with, apart from the terminal's name", () => {
    const prompt = terminalFixPrompt("powershell", "C:\\Windows\\system32\\cmd.exe", "win32", "");
    assert.ok(prompt.includes('integrated terminal "powershell" on win32'), prompt);
    assert.ok(prompt.includes("with C:\\Windows\\system32\\cmd.exe (not in that terminal, whose shell may be another), so write it in C:\\Windows\\system32\\cmd.exe's syntax"), prompt);
  });

  it("cuts an output line longer than the limit without leaving half of an emoji, which OpenAI-compatible servers refuse", () => {
    // A last line longer than the limit: some of the cuts fall inside a 🚀 (two code units).
    const output = `${"🚀 ok ".repeat(20)}\n🚀 ok 🚀 ok`;
    for (let max = 4; max < 40; max++) {
      const tail = outputTail(output, 50, max);
      assert.ok(wellFormed(tail), `a lone surrogate at ${max}: ${JSON.stringify(tail)}`);
      assert.ok(tail.endsWith("ok"));
    }
  });

  it("cuts a long command line in its label without leaving half of an emoji (the label goes to the model too)", () => {
    const label = terminalLabel({ commandLine: `echo "${"x".repeat(52)}🚀 deploy done"`, exitCode: 0, cwd: undefined, output: "", terminalName: "bash" });
    assert.ok(wellFormed(label), JSON.stringify(label));
    assert.equal(label, `Terminal "bash": echo "${"x".repeat(52)}…, exit 0`);
  });

  it("reads output full of escapes that never end (ESC] without its BEL or ST, 200 KB) at once, and an unended one takes the text up to the next escape, as a terminal swallows it", function () {
    // A hang guard, not a timing: each unended ESC] was searched to the output's end (seconds), now once.
    this.timeout(10_000);
    assert.equal(plainText("\x1b]x".repeat(66_000)), "");
    assert.equal(plainText("a\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ b\x1b]0;title\x07c\x1b]2;cut off\x1b[1md"), "alink bcd");
  });
});
