import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { launchLine, processTree, quoteWindowsArgument, type Runner, type Signaller } from "../../../src/extension/local-engine/platform-process";
import { exitWithEditorHook, serverCommand } from "../../../src/extension/local-engine/server-command";

/** cmd.exe's reading of a line outside quotes it has opened: each caret makes the next character plain. */
function cmdUnescape(line: string): string {
  return line.replace(/\^(.)/g, "$1");
}

/** How the C runtime splits a Windows command line into arguments. */
function parseWindowsArgs(line: string): string[] {
  const args: string[] = [];
  let current = "";
  let quoted = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") {
      let n = 0;
      while (line[i + n] === "\\") n++;
      if (line[i + n] === '"') {
        current += "\\".repeat(Math.floor(n / 2));
        if (n % 2 === 1) current += '"';
        else quoted = !quoted;
        i += n;
      } else {
        current += "\\".repeat(n);
        i += n - 1;
      }
      started = true;
    } else if (c === '"') {
      quoted = !quoted;
      started = true;
    } else if (c === " " && !quoted) {
      if (started) args.push(current);
      current = "";
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

const awkward = ["--models-dir", "C:\\Program Files (x86)\\Wisp\\models", "--name", 'say "hi" & 100%', "--data-dir", "C:\\Users\\A&B\\", "plain"];

describe("platform-process: Windows command lines and stopping a server's process tree", () => {
  it("runs commands directly in their own process group off Windows", () => {
    assert.deepEqual(launchLine("/usr/bin/wisp-server", ["--port", "1"], "linux", true), { file: "/usr/bin/wisp-server", args: ["--port", "1"], windowsVerbatimArguments: false, detached: true });
    assert.equal(launchLine("node", [], "darwin", false).detached, true);
  });

  it("runs the bundled server's executable directly on Windows, without a console of its own", () => {
    assert.deepEqual(launchLine("C:\\Program Files\\Code\\Code.exe", ["main.js", "--port", "1"], "win32", false), {
      file: "C:\\Program Files\\Code\\Code.exe",
      args: ["main.js", "--port", "1"],
      windowsVerbatimArguments: false,
      detached: false,
    });
  });

  it("runs a custom command through cmd.exe on Windows (npm's shims are .cmd files), quoted so each argument arrives as it was", () => {
    for (const [command, batch] of [["wisp-server", true], ["C:\\Tools\\wisp-server.cmd", true], ["C:\\Tools\\wisp-server.exe", false]] as const) {
      const launch = launchLine(command, awkward, "win32", true, "C:\\Windows\\system32\\cmd.exe");
      assert.equal(launch.file, "C:\\Windows\\system32\\cmd.exe");
      assert.deepEqual(launch.args.slice(0, 3), ["/d", "/s", "/c"]);
      assert.equal(launch.windowsVerbatimArguments, true);
      assert.equal(launch.detached, false);
      // /s /c "...": cmd drops the outer quotes, reads the carets once (and a batch file's arguments once more).
      const line = launch.args[3]!.slice(1, -1);
      const seen = batch ? cmdUnescape(cmdUnescape(line)) : cmdUnescape(line);
      assert.deepEqual(parseWindowsArgs(seen), [command, ...awkward], command);
    }
  });

  it("quotes one argument by the C runtime's rules, then escapes cmd's special characters", () => {
    assert.equal(quoteWindowsArgument("plain", false), '^"plain^"');
    assert.equal(quoteWindowsArgument('a "b"\\', false), '^"a^ \\^"b\\^"\\\\^"');
    assert.equal(quoteWindowsArgument("50%", true), '^^^"50^^^%^^^"');
  });

  it("on Windows: stops by closing stdin (the server's hook), kills with taskkill over the whole tree", () => {
    const ran: [string, string[]][] = [];
    const run: Runner = (file, args) => ran.push([file, args]);
    let ended = 0;
    const child = { pid: 4242, stdin: { end: () => ended++ } };
    const tree = processTree("win32", run, () => assert.fail("no signals on Windows"));
    tree.terminate(child);
    assert.equal(ended, 1);
    assert.deepEqual(ran, []);
    tree.kill(child);
    assert.deepEqual(ran, [["taskkill", ["/PID", "4242", "/T", "/F"]]]);
    tree.afterExit(child);
    tree.kill({ pid: undefined });
    assert.equal(ran.length, 1);
  });

  it("elsewhere: SIGTERM to the process group, SIGKILL to it to kill and after it exited; a group already gone is fine", () => {
    const sent: [number, string][] = [];
    const signal: Signaller = (pid, name) => {
      sent.push([pid, name]);
      if (sent.length === 3) throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
    };
    const tree = processTree("linux", () => assert.fail("no taskkill off Windows"), signal);
    const child = { pid: 4242, stdin: { end: () => assert.fail("stdin stays open") } };
    tree.terminate(child);
    tree.kill(child);
    tree.afterExit(child);
    assert.deepEqual(sent, [[-4242, "SIGTERM"], [-4242, "SIGKILL"], [-4242, "SIGKILL"]]);
  });

  it("the Windows exit-with-the-editor hook calls the server's own SIGTERM handler when stdin closes (run here in a real Node)", async () => {
    const hook = exitWithEditorHook("win32");
    assert.doesNotMatch(hook, /process\.kill/, "process.kill ends a process at once on Windows");
    const script = 'process.once("SIGTERM", () => { console.log("stopped as on Ctrl+C"); process.exit(3); }); setInterval(() => {}, 1000);';
    const child = spawn(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(hook)}`, "-e", script], {
      env: { ...process.env, WISP_EXIT_WITH_EDITOR: "1" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    assert.equal(out.trim(), "stopped as on Ctrl+C");
    assert.equal(code, 3);
    // Off Windows the hook signals itself, as before.
    assert.match(exitWithEditorHook("linux"), /process\.kill\(process\.pid, "SIGTERM"\)/);
  });

  it("a custom wisp.localServer.command is marked as the user's (run through cmd.exe on Windows); the bundled server is not", () => {
    assert.equal(serverCommand("/ext", "wisp-server").custom, true);
    const bundled = serverCommand("C:\\ext", "", "win32");
    assert.equal(bundled.custom, false);
    assert.ok(bundled.argv(["--port", "1"], true).some((arg) => arg.includes(encodeURIComponent('process.emit("SIGTERM"'))), "the Windows hook is the one loaded");
  });
});
