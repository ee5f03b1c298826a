import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { ChatView } from "./support/chat-view";
import { useWorkbench } from "./support/workbench-suite";

const committed = ["exports.total = (items) => {", "  let sum = 0;", "  for (const item of items) {", "    sum += item.price * item.qty;", "  }", "  return sum;", "};", ""].join("\n");
const changed = committed.replace("sum += item.price * item.qty;", "sum += item.price;").replace("return sum;", "return sum.toFixed(2);");
// Like a real build it takes a moment before it prints: shell integration reports a command's
// output from a moment after it starts (what a command prints at once can be missing).
const build = ["sleep 1", "echo 'building cart'", "echo 'error: config.json is missing' >&2", "test -f config.json || exit 3", "echo built", ""].join("\n");
const message = "fix: count quantities in the cart total";
const longAnswer = `feat: ${Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ")}`;
const finding = (line: number, severity: string, comment: string, fix = "") => ({ file: "cart.js", line, end_line: line, severity, comment, fix });

describe("Source Control, review comments and the terminal in the real VS Code UI, with mouse and keyboard (code-server + Chromium)", () => {
  const key = `sk-wisp-scm-${Date.now().toString(36)}`;
  let server: ScriptedChatServer;
  let ui: WorkbenchPage;
  let folder = "";

  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const started = await startScriptedChatServer({ key });
    folder = temp.make("e2e-scm");
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=Wisp Test", "-c", "user.email=test@wisp.invalid", ...args], { cwd: folder });
    writeFileSync(join(folder, "cart.js"), committed);
    writeFileSync(join(folder, "build.sh"), build);
    git("init", "--quiet", "--initial-branch=main");
    git("add", ".");
    git("commit", "--quiet", "-m", "feat: cart total");
    writeFileSync(join(folder, "cart.js"), changed);
    const settings = { "wisp.baseUrl": started.baseUrl, "wisp.completion.enabled": false, "terminal.integrated.defaultProfile.linux": "bash", "git.autofetch": false };
    return { server: started, workbench: { vsixes: [vsix], folder, settings, env: { WISP_API_KEY: key }, tempPrefix: "e2e-scm-" } };
  });
  before(() => ({ server, ui } = suite));
  // A test that failed before its answers were asked for leaves none for the next.
  afterEach(() => server.clearQueue());

  const sidebarAction = (label: string) => ui.page.locator(`.part.sidebar a.action-label[aria-label^="${label}"]`).first();
  /** A button of the repository's header in the Source Control view: shown when the mouse is over the header. */
  async function repositoryButton(label: string) {
    const header = ui.page.locator(".part.sidebar .pane-header", { has: ui.page.locator(`a.action-label[aria-label^="${label}"]`) }).first();
    await header.hover();
    return sidebarAction(label);
  }
  /** The commit box (a small editor in the Source Control view), as the user reads it: a long line wraps there. */
  const commitBox = () => ui.page.locator(".scm-editor .view-lines").first().innerText().then((t) => t.replace(/\u00a0/g, " ").replace(/\s+/g, " ").trim());

  it("the Source Control button streams the message into the commit box; clicking it again stops it; the palette does the same", async () => {
    await ui.page.keyboard.press("Control+Shift+G");
    // The Git extension first scans the folder: slow on a loaded machine.
    await sidebarAction("Generate Commit Message").waitFor({ state: "attached", timeout: 180_000 });

    server.queue({ text: message, tokensPerSecond: 8 });
    await (await repositoryButton("Generate Commit Message")).click();
    await waitFor("the message in the commit box", commitBox, (t) => t === message, 30_000);
    assert.ok((server.chatRequests.at(-1)!.messages as { content: string }[])[1]!.content.includes("-    sum += item.price * item.qty;\n+    sum += item.price;"));

    // Click again while it streams: the button is Stop then.
    server.queue({ text: longAnswer, tokensPerSecond: 5 });
    const aborted = server.aborted;
    await (await repositoryButton("Generate Commit Message")).click();
    // Past its first words: what Stop keeps is then longer than them whenever the click lands.
    await waitFor("the long message streaming", commitBox, (t) => t.startsWith("feat: word") && t.length > "feat: word".length);
    await (await repositoryButton("Stop Generating Commit Message")).click();
    await waitFor("the request closed", () => server.aborted, (n) => n === aborted + 1);
    await sidebarAction("Generate Commit Message").waitFor({ state: "attached" });
    const kept = await commitBox();
    assert.ok(kept.length > "feat: word".length && longAnswer.startsWith(kept) && kept.length < longAnswer.length, kept);

    // From the keyboard: the palette, for the only repository.
    server.queue({ text: message });
    await ui.runCommand("Wisp: Generate Commit Message");
    await waitFor("the message written again", commitBox, (t) => t === message);
  });

  it("Review Changes shows findings as comment threads: Apply Fix with the mouse, Ctrl+Z undoes it, Apply Fix from the keyboard; hostile markdown is inert", async () => {
    await ui.openFile("cart.js");
    server.queue({
      text: JSON.stringify({
        findings: [
          finding(4, "error", "Quantities are ignored.", "    sum += item.price * item.qty;"),
          finding(6, "warning", "toFixed returns a string.", "  return sum;"),
          finding(2, "info", 'Start at zero. <img src=x onerror="alert(1)"> [Run this](command:workbench.action.terminal.new)'),
        ],
      }),
    });
    await ui.runCommand("Wisp: Review Changes");
    const widget = (text: string) => ui.page.locator(".review-widget", { hasText: text });
    // The review's request, the Git extension's diff and the comments take a while on a loaded machine.
    await widget("Quantities are ignored.").waitFor({ state: "visible", timeout: 120_000 });

    const hostile = widget("Start at zero.");
    await hostile.waitFor({ state: "visible" });
    assert.equal(await hostile.locator("img, script").count(), 0, "no HTML rendered");
    assert.equal(await hostile.locator('a[href^="command:"], a[data-href^="command:"]').count(), 0, "no command link");
    assert.ok((await hostile.innerText()).includes("Run this"));

    // The mouse: the ✓ on the thread's header.
    await widget("Quantities are ignored.").locator('a.action-label[aria-label="Apply Fix"]').click();
    await waitFor("the fix in the editor", () => ui.editorText(), (t) => t.includes("sum += item.price * item.qty;"));
    await widget("Quantities are ignored.").waitFor({ state: "detached" });
    await ui.page.keyboard.press("Control+Z");
    await waitFor("the line back after one undo", () => ui.editorText(), (t) => t.includes("sum += item.price;") && !t.includes("item.qty"));

    // The keyboard: Go to Line 6, then Wisp: Apply Fix.
    await ui.page.keyboard.press("Control+G");
    await ui.quickInputBox().fill(":6");
    await ui.pressInQuickInput("Enter");
    await ui.runCommand("Wisp: Apply Fix");
    await waitFor("the second fix in the editor", () => ui.editorText(), (t) => t.includes("return sum;") && !t.includes("toFixed"));
    await widget("toFixed returns a string.").waitFor({ state: "detached" });

    // The chat lists the findings with links to their lines.
    // Drawn when the view has the review's turn (the view may still be loading when the comments show).
    const chat = new ChatView(ui);
    const links = await waitFor("the findings in the chat", async () => (await chat.frame()).locator(".turn.assistant a.file-link").allInnerTexts().catch(() => []), (l) => l.length >= 3);
    assert.deepEqual(links, ["cart.js:4", "cart.js:6", "cart.js:2"]);
    await ui.runCommand("Wisp: Clear Review");
    await widget("Start at zero.").waitFor({ state: "detached" });
  });

  it("a failed command in the terminal: Explain Terminal Failure from its context menu, Allow runs the fix; the key does it from the keyboard", async () => {
    // The keyboard back on the workbench (a failed test before may have left it in a webview).
    await ui.page.locator(".part.editor .monaco-editor .view-lines").first().click();
    await ui.runCommand("Terminal: Create New Terminal");
    const terminal = ui.page.locator(".terminal-wrapper.active .xterm").first();
    await terminal.waitFor({ state: "visible" });
    await runInTerminal("bash build.sh");
    // Shell integration marks the failed command with an error decoration.
    await ui.page.locator(".terminal-command-decoration.codicon-terminal-decoration-error").first().waitFor({ timeout: 60_000 });

    server.queue(
      { text: "config.json is missing.", toolCalls: [{ name: "run_in_terminal", arguments: { command: "echo '{}' > config.json && bash build.sh", explanation: "Create it and build again" } }] },
      { text: "Fixed: the build now ends with built." },
    );
    await terminal.click({ button: "right" });
    await ui.clickMenuItem(/Explain Terminal Failure/);

    let frame: Frame = await new ChatView(ui).frame();
    const card = frame.locator(".agent-approval");
    await card.waitFor({ state: "visible", timeout: 120_000 });
    assert.equal(await card.locator(".agent-command").innerText(), "echo '{}' > config.json && bash build.sh");
    assert.equal(existsSync(join(folder, "config.json")), false, "nothing runs before Allow");
    const question = (server.chatRequests.at(-1)!.messages as { role: string; content: string }[]).findLast((m) => m.role === "user")!.content;
    assert.ok(question.includes("$ bash build.sh\n(exit code 3, in ") && question.includes("error: config.json is missing"), question);
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await waitFor("the answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("the build now ends with built"));
    assert.equal(existsSync(join(folder, "config.json")), true);

    // The keyboard: fail again, then the key while the terminal has the focus.
    rmSync(join(folder, "config.json"));
    await ui.runCommand("Terminal: Focus Terminal");
    await runInTerminal("bash build.sh");
    await waitFor("two failure marks", () => ui.page.locator(".terminal-command-decoration.codicon-terminal-decoration-error").count(), (n) => n >= 2);
    server.queue({ text: "Same cause: config.json is missing again." });
    const requests = server.chatRequests.length;
    await ui.runCommand("Terminal: Focus Terminal");
    await ui.page.keyboard.press("Control+K");
    await ui.page.keyboard.press("Control+E");
    await waitFor("the explanation asked", () => server.chatRequests.length, (n) => n === requests + 1);
    frame = await new ChatView(ui).frame();
    await waitFor("the second answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("config.json is missing again"));
  });

  /** Types a command into the focused terminal as a user does, and presses Enter. */
  async function runInTerminal(command: string): Promise<void> {
    await ui.page.locator(".terminal-wrapper.active .xterm").first().click();
    await ui.page.keyboard.type(command);
    await ui.page.keyboard.press("Enter");
  }
});
