import assert from "node:assert/strict";
import { execSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandEnv, howItEnded, runCommand } from "../../../src/extension/agent/command-runner";

describe("a command's output, masked before its middle is cut", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-runner-"));
    // 3,000 characters of log, a key of 20 lines, a short tail: with 1,000 kept (600 of them at the end), the BEGIN line falls in the cut middle.
    // The last line has no line break: it shows while it grows, and must be masked then too.
    const lines = [
      ...Array.from({ length: 100 }, (_, i) => `step ${String(i).padStart(3, "0")}: copying files........`),
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      ...Array.from({ length: 20 }, (_, i) => `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB${i}`),
      "-----END OPENSSH PRIVATE KEY-----",
      "export DEPLOY_TOKEN=tok-12345",
      "Error loading key: invalid format",
      "retrying with --password hunter2",
    ];
    writeFileSync(join(dir, "print.js"), `process.stdout.write(${JSON.stringify(lines.join("\n"))});`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (maskSecrets: boolean) => {
    const streamed: string[] = [];
    const result = await runCommand({ command: `"${process.execPath}" print.js`, cwd: dir, timeoutMs: 20_000, maxOutputChars: 1_000, signal: new AbortController().signal, onOutput: (text) => streamed.push(text), maskSecrets });
    return { result, streamed };
  };
  const secrets = ["b3BlbnNzaC1rZXkt", "tok-12345", "hunter2"];

  it("the card, the saved chat and the model get no secret, as it streams or at the end, not even a key line whose BEGIN line was cut away", async () => {
    const { result, streamed } = await run(true);
    assert.equal(result.exitCode, 0);
    assert.ok(result.output.includes("characters cut"), result.output);
    assert.ok(result.output.endsWith("[masked]\nexport DEPLOY_TOKEN=[masked]\nError loading key: invalid format\nretrying with --password [masked]"), result.output);
    assert.ok(streamed.length > 0);
    for (const text of [result.output, ...streamed]) for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in:\n${text}`);
    assert.ok(streamed.at(-1)!.endsWith("retrying with --password [masked]"), "the unfinished last line shows, masked");
  });

  it("without masking asked for (agent mode), the output is what the command printed", async () => {
    const { result } = await run(false);
    assert.ok(result.output.includes("b3BlbnNzaC1rZXkt") && result.output.endsWith("retrying with --password hunter2"), result.output);
  });
});

describe("a command that leaves a process holding its output", () => {
  let dir: string;
  let pid: number | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-runner-"));
    // As a daemon or a browser started by xdg-open does: its own session, the command's stdout and stderr kept.
    writeFileSync(join(dir, "daemon.js"), `const c = require("child_process").spawn("sleep", ["60"], { detached: true, stdio: ["ignore", 1, 2] }); require("fs").writeFileSync("pid", String(c.pid)); c.unref(); console.log("started");`);
  });
  after(() => {
    if (pid !== undefined) process.kill(pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("ends soon after its shell exits, with what it printed and a note, instead of waiting on the process (no time limit or Stop could end it)", async function () {
    this.timeout(20_000);
    const started = Date.now();
    const result = await runCommand({ command: `"${process.execPath}" daemon.js`, cwd: dir, timeoutMs: 60_000, maxOutputChars: 1_000, signal: new AbortController().signal, onOutput: () => undefined });
    pid = Number(readFileSync(join(dir, "pid"), "utf8"));
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    assert.equal(result.exitCode, 0);
    assert.equal(result.timedOut, false);
    assert.match(result.output, /^started\n[\s\S]*still holds its output/);
  });
});

describe("a command's output whose characters two reads split", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-runner-"));
    // "café ✓ passed" with é and ✓ each written in two pieces, apart in time (as block-buffered output splits them), on stdout and stderr.
    writeFileSync(
      join(dir, "split.js"),
      `const b = (s) => Buffer.from(s, "utf8");
const [e1, e2] = [b("é").subarray(0, 1), b("é").subarray(1)];
const [t1, t2] = [b("✓").subarray(0, 2), b("✓").subarray(2)];
process.stdout.write(Buffer.concat([b("caf"), e1]));
setTimeout(() => process.stdout.write(Buffer.concat([e2, b(" "), t1])), 200);
setTimeout(() => process.stdout.write(Buffer.concat([t2, b(" passed\\n")])), 400);
setTimeout(() => process.stderr.write(t1), 600);
setTimeout(() => process.stderr.write(Buffer.concat([t2, b(" done\\n")])), 800);`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps each character whole, in the streamed and the final output (not two U+FFFD)", async () => {
    const streamed: string[] = [];
    const result = await runCommand({ command: `"${process.execPath}" split.js`, cwd: dir, timeoutMs: 20_000, maxOutputChars: 1_000, signal: new AbortController().signal, onOutput: (text) => streamed.push(text) });
    assert.equal(result.output, "café ✓ passed\n✓ done\n");
    for (const text of streamed) assert.ok(!text.includes("\ufffd"), JSON.stringify(text));
  });
});

describe("a command that a signal ends (a crash, the out-of-memory killer)", () => {
  let shell: string | undefined;
  // bash (and zsh, macOS's login shell) run a lone command in their own process, so the signal ends the shell itself.
  before(() => {
    shell = process.env.SHELL;
    process.env.SHELL = "/bin/bash";
  });
  after(() => {
    if (shell === undefined) delete process.env.SHELL;
    else process.env.SHELL = shell;
  });

  for (const [signal, code, meaning] of [["SIGSEGV", 139, "a crash (segmentation fault)"], ["SIGKILL", 137, "often the out-of-memory killer"]] as const) {
    it(`tells the model it was killed by ${signal} and what that means, with the exit code a shell reports (${code}), not "exit code null"`, async () => {
      const result = await runCommand({ command: `"${process.execPath}" -e "process.kill(process.pid, '${signal}')"`, cwd: tmpdir(), timeoutMs: 20_000, maxOutputChars: 1_000, signal: new AbortController().signal, onOutput: () => undefined });
      assert.equal(result.exitCode, code);
      assert.equal(howItEnded(result, 20_000), `exit code ${code} (killed by ${signal}: ${meaning})`);
    });
  }

  it("a command that Stop ended is still told as stopped by the user", async () => {
    const stop = new AbortController();
    const running = runCommand({ command: "sleep 30", cwd: tmpdir(), timeoutMs: 20_000, maxOutputChars: 1_000, signal: stop.signal, onOutput: () => undefined });
    stop.abort();
    const result = await running;
    assert.equal(result.exitCode, null);
    assert.equal(howItEnded(result, 20_000), "stopped by the user");
  });
});

describe("a command that opens an editor (git commit without -m)", () => {
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  const names = ["GIT_EDITOR", "EDITOR", "VISUAL"] as const;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-runner-"));
    // The user's editor: one that waits for someone at a terminal, as vim does with none (sleep stands in for it; git appends the file, which # leaves out).
    for (const name of names) saved[name] = process.env[name];
    process.env.GIT_EDITOR = "sleep 60 #";
    process.env.EDITOR = "sleep 60 #";
    const git = (args: string) => execSync(`git ${args}`, { cwd: dir });
    git("init -q");
    git("config user.email wisp@example.com");
    git("config user.name Wisp");
    writeFileSync(join(dir, "a.txt"), "a\n");
    git("add a.txt");
  });
  after(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("fails at once saying how to give the message, instead of waiting for the time limit", async function () {
    this.timeout(30_000);
    const started = Date.now();
    const result = await runCommand({ command: "git commit", cwd: dir, timeoutMs: 15_000, maxOutputChars: 2_000, signal: new AbortController().signal, onOutput: () => undefined });
    assert.equal(result.timedOut, false, `still waiting after ${Date.now() - started} ms: ${result.output}`);
    assert.notEqual(result.exitCode, 0);
    assert.match(result.output, /No editor can open: this command runs without a terminal\. Give the text on the command line instead \(git commit -m MESSAGE/);
    assert.equal(execSync("git rev-list --all --count", { cwd: dir, encoding: "utf8" }).trim(), "0", "nothing committed");
  });
});

describe("a command's progress meter and colours (curl -o, ffmpeg, rsync --progress, a forced colour)", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-runner-"));
    // 400 frames after \r, as curl's meter writes one a second, in reads of their own; coloured error at the end.
    writeFileSync(
      join(dir, "download.js"),
      `process.stdout.write("fetching model.bin from the mirror\\n");
let i = 0;
const frame = () => {
  process.stderr.write("\\r" + String(Math.round(i / 4)).padStart(3) + "% " + "#".repeat(Math.round(i / 8)).padEnd(50) + " 9.9M/s");
  if (++i <= 400) setImmediate(frame);
  else process.stderr.write("\\n\\x1b[31merror:\\x1b[0m checksum mismatch\\n");
};
frame();`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the model and the card what a terminal shows: the meter's last frame, the lines before it, no escape codes", async () => {
    const streamed: string[] = [];
    const result = await runCommand({ command: `"${process.execPath}" download.js`, cwd: dir, timeoutMs: 20_000, maxOutputChars: 1_000, signal: new AbortController().signal, onOutput: (text) => streamed.push(text) });
    assert.equal(result.output, `fetching model.bin from the mirror\n100% ${"#".repeat(50)} 9.9M/s\nerror: checksum mismatch\n`);
    for (const text of streamed) assert.ok(!text.includes("\r") && !text.includes("\x1b"), JSON.stringify(text));
  });
});

describe("a command on Windows, in a cloned repository holding git.bat or ls.exe at its root", () => {
  it("does not let cmd.exe run the folder's own program for an approved `git status`: the current directory is not searched", () => {
    const env = commandEnv("win32", { Path: "C:\\Windows\\system32", ComSpec: "C:\\Windows\\system32\\cmd.exe" });
    // Its presence, not its value, turns the search off (NeedCurrentDirectoryForExePath).
    assert.ok("NoDefaultCurrentDirectoryInExePath" in env);
    assert.equal(env.Path, "C:\\Windows\\system32");
    assert.equal(env.GIT_PAGER, "cat");
  });

  it("leaves the environment of a POSIX shell as it was, with no pager and no editor", () => {
    const env = commandEnv("linux", { PATH: "/usr/bin" });
    assert.ok(!("NoDefaultCurrentDirectoryInExePath" in env));
    assert.equal(env.PATH, "/usr/bin");
    assert.match(env.GIT_EDITOR ?? "", /No editor can open/);
  });
});
