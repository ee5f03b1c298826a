import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { AgentMessage, ChatTool } from "../../src/core/api/chat";
import type { UserTurn } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, toolResults } from "./support/agent-task";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const dir = join(workspace, "terminal-failure");
const secret = "tok_live_51HwispTerminalSecret";
// Fails with exit 3, printing a secret in a KEY=value line and a token shape on stderr.
// Like a real build it takes a moment before it prints: shell integration reports a command's
// output from a moment after it starts (what a command prints at once can be missing).
const build = [
  "sleep 1",
  "echo 'building cart'",
  `echo 'DEPLOY_TOKEN=${secret}'`,
  "echo 'auth header: Bearer ghp_0123456789abcdefghijABCDEFGHIJ012345' >&2",
  "echo 'error: config.json is missing' >&2",
  "test -f config.json || exit 3",
  "echo 'built'",
  "",
].join("\n");

describe("Explain Terminal Failure and @terminal through shell integration (real VS Code terminal, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const opened: vscode.Terminal[] = [];
  const { steps, asking, approve, ended } = agentTaskView(() => api);

  /** A bash terminal in the folder, once VS Code's shell integration is active in it. */
  async function bash(name: string): Promise<vscode.Terminal> {
    const terminal = vscode.window.createTerminal({ name, shellPath: "/bin/bash", cwd: dir });
    opened.push(terminal);
    terminal.show();
    await waitFor(`shell integration in ${name}`, () => terminal.shellIntegration !== undefined, Boolean, 60_000);
    return terminal;
  }

  /** The next time `event` (a command's start or end) fires for `terminal`. */
  function nextIn(event: vscode.Event<{ readonly terminal: vscode.Terminal }>, terminal: vscode.Terminal): Promise<void> {
    return new Promise((done) => {
      const watching = event((e) => {
        if (e.terminal !== terminal) return;
        watching.dispose();
        done();
      });
    });
  }

  /** Runs `commandLine` in the terminal and waits for its end: the same command run again is recorded anew. */
  async function runIn(terminal: vscode.Terminal, commandLine: string): Promise<void> {
    const ended = nextIn(vscode.window.onDidEndTerminalShellExecution, terminal);
    terminal.sendText(commandLine);
    await ended;
  }

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-terminal-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "build.sh"), build);
  });
  afterEach(() => api.chat.fromView({ type: "stop" }));
  after(async () => {
    for (const terminal of opened) terminal.dispose();
    await api.chat.fromView({ type: "newChat" });
    rmSync(dir, { recursive: true, force: true });
    await resetWisp();
    await server?.close();
  });

  it("a failed command is explained from its command line, exit code, folder and masked output; the corrected command runs only after Allow", async () => {
    const terminal = await bash("wisp-bash");
    terminal.sendText("bash build.sh");
    const failed = await waitFor("the failed command recorded", () => api.terminal.latest(terminal), (c) => c?.commandLine === "bash build.sh");
    assert.equal(failed!.exitCode, 3);
    assert.equal(failed!.cwd, dir);

    server.queue(
      { text: "The build stops because config.json is missing.", toolCalls: [{ name: "run_in_terminal", arguments: { command: "echo '{}' > config.json && bash build.sh", explanation: "Create the missing config and build again" } }] },
      { text: "That fixed it: the build now ends with built." },
    );
    const before = server.chatRequests.length;
    const outcome = await vscode.commands.executeCommand<{ kind: string }>("wisp.explainTerminalFailure");
    assert.deepEqual(outcome, { kind: "sent", commandLine: "bash build.sh" });

    const step = await asking(0);
    assert.equal(step!.command, "echo '{}' > config.json && bash build.sh");
    assert.equal(existsSync(join(dir, "config.json")), false, "nothing runs before Allow");

    const request = server.chatRequests[before]!;
    const question = (request.messages as AgentMessage[]).findLast((m) => m.role === "user")!.content as string;
    for (const part of ["$ bash build.sh", `(exit code 3, in ${dir})`, "building cart", "DEPLOY_TOKEN=[masked]", "error: config.json is missing"]) assert.ok(question.includes(part), `${part} in:\n${question}`);
    assert.ok(!JSON.stringify(server.chatRequests).includes(secret) && !JSON.stringify(server.chatRequests).includes("ghp_0123456789"), "no secret is sent");
    assert.deepEqual((request.tools as ChatTool[]).map((t) => t.function.name), ["run_in_terminal"], "the one tool: the corrected command");
    // The fix runs with the extension's command shell, not in the terminal: the model is told which, to write it in its syntax.
    const system = (request.messages as AgentMessage[])[0]!.content as string;
    const runShell = process.env.SHELL || "/bin/sh";
    assert.ok(system.includes('integrated terminal "wisp-bash" on linux') && system.includes(`with ${runShell} (not in that terminal, whose shell may be another), so write it in ${runShell}'s syntax`), system);
    const turn = api.chat.state().chat.turns.find((t): t is UserTurn => t.role === "user")!;
    assert.equal(turn.attachments[0]!.label, 'Terminal "wisp-bash": bash build.sh, failed with exit code 3');

    await approve(0, "allow");
    await ended();
    assert.equal(existsSync(join(dir, "config.json")), true);
    assert.equal(steps()[0]!.exitCode, 0);
    assert.match(toolResults(server.chatRequests.at(-1)!).at(-1)!, /^exit code 0\n[\s\S]*built/);
    // The step is saved with the chat, shown in the card and sent by /compact: it holds the output masked, as the model got it.
    assert.ok(steps()[0]!.output!.includes("DEPLOY_TOKEN=[masked]") && steps()[0]!.output!.includes("built"), steps()[0]!.output);
    const state = JSON.stringify(api.chat.state());
    assert.ok(!state.includes(secret) && !state.includes("ghp_0123456789"), "no secret in the chat's state");
    rmSync(join(dir, "config.json"));
  });

  it("Deny runs nothing; auto-approved commands still ask", async () => {
    await vscode.workspace.getConfiguration("wisp.agent").update("autoApprove", ["touch"], vscode.ConfigurationTarget.Global);
    const terminal = opened[0]!;
    // Its end awaited: until then the terminal runs it, and Explain would say so.
    await runIn(terminal, "bash build.sh");
    assert.equal((await api.terminal.latest(terminal))?.exitCode, 3);
    server.queue({ toolCalls: [{ name: "run_in_terminal", arguments: { command: "touch config.json" } }] }, { text: "Then create config.json yourself." });
    await vscode.commands.executeCommand("wisp.explainTerminalFailure", terminal);
    await approve(0, "deny");
    await ended();
    assert.equal(existsSync(join(dir, "config.json")), false);
    assert.equal(steps()[0]!.status, "denied");
    await vscode.workspace.getConfiguration("wisp.agent").update("autoApprove", undefined, vscode.ConfigurationTarget.Global);
  });

  it("a corrected command that holds [masked] (a secret the model never saw) is not run, and says why", async () => {
    const terminal = opened[0]!;
    await runIn(terminal, "bash build.sh");
    // The model copies the value it was shown: the placeholder, which would be set as the token.
    server.queue({ toolCalls: [{ name: "run_in_terminal", arguments: { command: "echo 'DEPLOY_TOKEN=[masked]' > deploy.env && bash build.sh" } }] }, { text: "Run it with your token." });
    const requests = server.chatRequests.length;
    await vscode.commands.executeCommand("wisp.explainTerminalFailure", terminal);
    const step = await waitFor("the step refused", () => steps()[0], (s) => s?.command?.includes("deploy.env") === true && s.status !== "running");
    assert.equal(step!.status, "denied");
    assert.match(step!.note ?? "", /^Not run: the command holds \[masked\], which stands for a value Wisp kept from the model/);
    await waitFor("the model told", () => server.chatRequests.length, (n) => n === requests + 2);
    await ended();
    assert.equal(existsSync(join(dir, "deploy.env")), false, "nothing ran");
    assert.match(toolResults(server.chatRequests.at(-1)!).at(-1)!, /Run it yourself with the real value/);
  });

  it("@terminal attaches the last command and its output, masked", async () => {
    await api.chat.fromView({ type: "newChat" });
    const item = (await api.chat.mentions("", "terminal")).find((i) => i.label === "@terminal")!;
    await api.chat.fromView({ type: "addMention", id: item.id });
    const [attached] = api.chat.state().chat.pending;
    assert.equal(attached!.source, "terminal");
    assert.ok(attached!.text.startsWith("$ bash build.sh\n(exit code 3, in "), attached!.text);
    assert.ok(attached!.text.includes("DEPLOY_TOKEN=[masked]") && !attached!.text.includes(secret), attached!.text);
    await api.chat.fromView({ type: "removeAttachment", id: attached!.id });
  });

  it("a failed command's lines that end in \\r\\n (curl -i's headers, a CRLF file) reach the model as they show, not blank", async () => {
    const terminal = opened[0]!;
    // printf writes \r\n; the terminal receives \r\r\n (the tty adds its own \r before each \n).
    writeFileSync(join(dir, "fetch.sh"), "sleep 1\nprintf 'HTTP/1.1 404 Not Found\\r\\ncontent-type: text/html\\r\\n\\r\\n'\nprintf 'error: the page /cart is gone\\r\\n'\nexit 22\n");
    terminal.sendText("bash fetch.sh");
    await waitFor("the fetch recorded", () => api.terminal.latest(terminal), (c) => c?.commandLine === "bash fetch.sh" && c.exitCode === 22);
    await api.chat.fromView({ type: "newChat" });
    const item = (await api.chat.mentions("", "terminal")).find((i) => i.label === "@terminal")!;
    await api.chat.fromView({ type: "addMention", id: item.id });
    const [attached] = api.chat.state().chat.pending;
    for (const line of ["HTTP/1.1 404 Not Found", "content-type: text/html", "error: the page /cart is gone"]) assert.ok(attached!.text.includes(`\n${line}\n`) || attached!.text.endsWith(`\n${line}`), `${line} in:\n${attached!.text}`);
    await api.chat.fromView({ type: "removeAttachment", id: attached!.id });
  });

  it("a script's tput colours reach the model as the words it shows, with no '(B' left of tput sgr0's escape", async () => {
    const terminal = opened[0]!;
    writeFileSync(join(dir, "check.sh"), "sleep 1\necho \"$(tput setaf 1)error$(tput sgr0): config.json is missing\"\nexit 4\n");
    terminal.sendText("bash check.sh");
    const failed = await waitFor("the check recorded", () => api.terminal.latest(terminal), (c) => c?.commandLine === "bash check.sh" && c.exitCode === 4);
    assert.ok(failed!.output.includes("\x1b(B"), "tput sgr0 wrote its character set escape");
    await api.chat.fromView({ type: "newChat" });
    const item = (await api.chat.mentions("", "terminal")).find((i) => i.label === "@terminal")!;
    await api.chat.fromView({ type: "addMention", id: item.id });
    const [attached] = api.chat.state().chat.pending;
    assert.ok(attached!.text.endsWith("\nerror: config.json is missing"), attached!.text);
    await api.chat.fromView({ type: "removeAttachment", id: attached!.id });
  });

  it("while a command still runs, Explain says so instead of explaining the one before it", async () => {
    const terminal = opened[0]!;
    const started = nextIn(vscode.window.onDidStartTerminalShellExecution, terminal);
    terminal.sendText("sleep 30");
    await started;
    const requests = server.chatRequests.length;
    const outcome = await vscode.commands.executeCommand<{ kind: string; reason: string }>("wisp.explainTerminalFailure", terminal);
    assert.equal(outcome.kind, "nothing", JSON.stringify(outcome));
    assert.match(outcome.reason, /"sleep 30" is still running in this terminal\. Explain it once it has ended/);
    assert.equal(server.chatRequests.length, requests, "nothing sent");
    terminal.sendText("\x03", false);
    await waitFor("the sleep stopped", () => api.terminal.latest(terminal), (c) => c?.commandLine === "sleep 30");
  });

  it("@terminal while a command still runs (a dev server) attaches it with its output so far, not the command before it", async () => {
    const terminal = opened[0]!;
    terminal.show();
    await waitFor("the terminal active", () => vscode.window.activeTerminal, (t) => t === terminal);
    writeFileSync(join(dir, "serve.sh"), "sleep 1\necho 'listening on :3000'\necho 'GET /cart 500: TypeError: cart is undefined'\nsleep 60\n");
    const started = nextIn(vscode.window.onDidStartTerminalShellExecution, terminal);
    terminal.sendText("bash serve.sh");
    await started;
    try {
      await waitFor("the server's error printed", () => api.terminal.runningCommand(terminal)?.output ?? "", (o) => o.includes("TypeError"));
      await api.chat.fromView({ type: "newChat" });
      const item = (await api.chat.mentions("", "terminal")).find((i) => i.label === "@terminal")!;
      await api.chat.fromView({ type: "addMention", id: item.id });
      const [attached] = api.chat.state().chat.pending;
      assert.equal(attached!.label, 'Terminal "wisp-bash": bash serve.sh, still running');
      assert.ok(attached!.text.startsWith(`$ bash serve.sh\n(still running, in ${dir})\n`) && attached!.text.includes("GET /cart 500: TypeError: cart is undefined"), attached!.text);
      await api.chat.fromView({ type: "removeAttachment", id: attached!.id });
    } finally {
      // Stopped whatever the outcome: the next cases type into this terminal.
      const ended = nextIn(vscode.window.onDidEndTerminalShellExecution, terminal);
      terminal.sendText("\x03", false);
      await ended;
    }
  });

  it("a command that names a sensitive file (cat .env) asks before its output goes: refused, Explain and @terminal send nothing", async () => {
    const terminal = opened[0]!;
    // DB_CONN is no name masking knows: the output would go as it is.
    writeFileSync(join(dir, ".env"), "DB_CONN=hunter2-terminal-env\n");
    await runIn(terminal, "sleep 1; cat .env; false");
    assert.ok((await api.terminal.latest(terminal))!.output.includes("hunter2-terminal-env"), "the terminal showed the file");
    const requests = server.chatRequests.length;
    // The test host refuses the dialog, as Don't send does.
    const outcome = await vscode.commands.executeCommand<{ kind: string; reason: string }>("wisp.explainTerminalFailure", terminal);
    assert.equal(outcome.kind, "nothing", JSON.stringify(outcome));
    assert.match(outcome.reason, /terminal-failure\/\.env matches wisp\.sensitiveFiles\/\.wispignore and may contain secrets/);
    await api.chat.fromView({ type: "newChat" });
    const item = (await api.chat.mentions("", "terminal")).find((i) => i.label === "@terminal")!;
    await assert.rejects(api.chat.fromView({ type: "addMention", id: item.id }), /terminal-failure\/\.env matches wisp\.sensitiveFiles/);
    assert.deepEqual(api.chat.state().chat.pending, []);
    assert.equal(server.chatRequests.length, requests, "nothing sent");
    assert.ok(!JSON.stringify(api.chat.state()).includes("hunter2-terminal-env"));
    rmSync(join(dir, ".env"));
  });

  it("a git diff in the failed command's output, and in the corrected command's, leaves out a sensitive file's changes, as @git does", async () => {
    const terminal = opened[0]!;
    const repo = join(dir, "diffrepo");
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo });
    git("init", "-q");
    git("config", "user.email", "test@wisp.invalid");
    git("config", "user.name", "Wisp Test");
    writeFileSync(join(repo, ".env"), "DB_CONN=old\n");
    writeFileSync(join(repo, "app.js"), "const port = 1;\n");
    git("add", ".");
    git("commit", "-qm", "init");
    // DB_CONN is no name masking knows: only leaving the section out keeps it.
    writeFileSync(join(repo, ".env"), "DB_CONN=hunter2-diff-secret\n");
    writeFileSync(join(repo, "app.js"), "const port = 2;\n");
    await runIn(terminal, "sleep 1; git --no-pager -C diffrepo diff --exit-code");
    const failed = await api.terminal.latest(terminal);
    assert.ok(failed!.exitCode === 1 && failed!.output.includes("hunter2-diff-secret"), "the terminal showed the .env's change");
    server.queue({ text: "The diff is not empty.", toolCalls: [{ name: "run_in_terminal", arguments: { command: "git --no-pager -C diffrepo diff" } }] }, { text: "Those are the changes." });
    const before = server.chatRequests.length;
    await vscode.commands.executeCommand("wisp.explainTerminalFailure", terminal);
    await asking(0);
    await approve(0, "allow");
    await ended();
    const question = (server.chatRequests[before]!.messages as AgentMessage[]).findLast((m) => m.role === "user")!.content as string;
    const result = toolResults(server.chatRequests.at(-1)!).at(-1)!;
    for (const text of [question, result]) assert.ok(text.includes("+const port = 2;") && text.includes("[the diff of .env is left out: it matches wisp.sensitiveFiles or .wispignore"), text);
    assert.ok(!JSON.stringify(server.chatRequests.slice(before)).includes("hunter2-diff-secret"), "the .env's change is not sent");
    assert.ok(!JSON.stringify(api.chat.state()).includes("hunter2-diff-secret"), "nor kept in the chat");
    rmSync(repo, { recursive: true, force: true });
  });

  it("a succeeded command has nothing to explain, and without shell integration the command says how to turn it on", async () => {
    const terminal = opened[0]!;
    terminal.sendText("true");
    await waitFor("the passing command recorded", () => api.terminal.latest(terminal), (c) => c?.commandLine === "true");
    const requests = server.chatRequests.length;
    const passed = await vscode.commands.executeCommand<{ kind: string; reason: string }>("wisp.explainTerminalFailure", terminal);
    assert.equal(passed.kind, "nothing");
    assert.match(passed.reason, /succeeded \(true\): nothing to explain/);

    // dash has no shell integration.
    const plain = vscode.window.createTerminal({ name: "wisp-sh", shellPath: "/bin/sh", cwd: dir });
    opened.push(plain);
    const missing = await vscode.commands.executeCommand<{ kind: string; reason: string }>("wisp.explainTerminalFailure", plain);
    assert.equal(missing.kind, "nothing");
    assert.match(missing.reason, /needs VS Code's shell integration, which is not active in this terminal\..*terminal\.integrated\.shellIntegration\.enabled/);
    assert.equal(server.chatRequests.length, requests, "nothing sent");
  });
});
