import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { repoRoot } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";
import { userSettingsPath } from "../harness/workbench-session";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { ChatView } from "./support/chat-view";
import { e2eResultsDir } from "./support/screenshot-on-failure";
import { readWispLog } from "./support/wisp-log";
import { useWorkbench } from "./support/workbench-suite";

const cart = "exports.total = (items) => items.reduce((sum, item) => sum + item.price, 0);\n";
// How long the view may take to show what the extension did: on a loaded machine its host can be
// that slow (a condition is waited for, never a time).
const slow = 120_000;
const cartTest = 'const assert = require("assert");\nconst { total } = require("./cart");\nassert.equal(total([{ price: 2, qty: 3 }]), 6);\nconsole.log("cart tests passed");\n';

describe("Agent mode in the chat view: approval cards and the transcript with mouse and keyboard (code-server + Chromium)", () => {
  const key = `sk-wisp-agent-${Date.now().toString(36)}`;
  let server: ScriptedChatServer;
  let ui: WorkbenchPage;
  let frame: Frame;
  let folder: string;

  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const started = await startScriptedChatServer({ key });
    folder = temp.make("e2e-agent");
    writeFileSync(join(folder, "cart.js"), cart);
    writeFileSync(join(folder, "cart.test.js"), cartTest);
    return { server: started, workbench: { vsixes: [vsix], folder, settings: { "wisp.baseUrl": started.baseUrl, "wisp.completion.enabled": false }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-agent-" } };
  });
  before(async () => {
    ({ server, ui } = suite);
    frame = await new ChatView(ui).open();
  });

  const card = () => frame.locator(".agent-approval");
  /**
   * Puts a task into the prompt box and starts it with Enter there. Once a task has opened its diff
   * editor, that editor can take the focus back while keys are typed: the text is filled in (no
   * keystrokes), and Enter pressed on the box only once it holds the task. (Closing the editors
   * first through the palette once failed: F1 opened nothing.)
   */
  async function startTask(text: string): Promise<void> {
    const box = frame.locator(".composer textarea");
    await box.fill(text);
    await waitFor("the task in the prompt box", () => box.inputValue(), (value) => value === text);
    await box.press("Enter");
  }
  const rows = () => frame.locator(".agent-step .agent-row").allInnerTexts();

  it("a task runs with Allow clicked, Allow in this session pressed from the keyboard, shows its rows, and Undo puts the file back after asking about a line added by hand since (Undo Anyway clicked)", async () => {
    await frame.locator(".modes button", { hasText: "Agent" }).click();
    await waitFor("agent mode on", () => frame.locator(".modes button[aria-pressed=true]").innerText(), (t) => t === "Agent");
    assert.equal(await frame.locator(".composer button[type=submit]").innerText(), "Start");
    server.queue(
      { text: "Running the tests.", toolCalls: [{ name: "run_in_terminal", arguments: { command: "node cart.test.js", explanation: "See what fails" } }] },
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: "cart.js", old_string: "sum + item.price,", new_string: "sum + item.price * item.qty," } }] },
      { toolCalls: [{ name: "run_in_terminal", arguments: { command: "node cart.test.js", explanation: "Check the fix" } }] },
      { text: "Fixed **cart.js**: prices are multiplied by quantities." },
    );
    await frame.locator(".composer textarea").fill("Make the test pass");
    await ui.page.keyboard.press("Enter");

    // The first card, answered with the mouse.
    await card().waitFor({ state: "visible" });
    assert.equal(await card().locator(".agent-command").innerText(), "node cart.test.js");
    assert.equal(await card().locator(".agent-explanation").innerText(), "See what fails");
    await card().getByRole("button", { name: "Allow", exact: true }).click();

    // The second card, answered from the keyboard.
    await waitFor("the second card", () => card().locator(".agent-explanation").innerText().catch(() => ""), (t) => t === "Check the fix");
    await card().getByRole("button", { name: "Allow in this session" }).focus();
    await ui.page.keyboard.press("Enter");

    await waitFor("the answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("prices are multiplied by quantities"));
    assert.deepEqual(await normalised(), ["ran node cart.test.js exit 1 failed", "edited cart.js +1 −1 Open Diff", "ran node cart.test.js exit 0"]);
    assert.equal(await frame.locator(".agent-text").first().innerText(), "Running the tests.");
    assert.equal(readFileSync(join(folder, "cart.js"), "utf8"), cart.replace("sum + item.price,", "sum + item.price * item.qty,"));

    // What a finished task looks like, kept for the record (test-results/ is not committed).
    mkdirSync(e2eResultsDir, { recursive: true });
    await ui.page.screenshot({ path: join(e2eResultsDir, "agent-finished-task.png") });

    // A finished command's output is folded; a click opens it.
    const output = frame.locator(".agent-step").first().locator("details.agent-output");
    assert.equal(await output.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await output.locator("summary").click();
    assert.match(await output.locator("pre").innerText(), /AssertionError/);

    // Open Diff shows the file before the task beside it now.
    await frame.locator(".agent-step").nth(1).getByRole("button", { name: "Open Diff of cart.js" }).click();
    await ui.page.locator(".tab", { hasText: "before the task" }).first().waitFor({ state: "visible" });
    frame = await new ChatView(ui).frame();

    // Keep / Undo under the transcript: Undo from the keyboard restores the file. A line added by
    // hand since the task makes it ask first, in VS Code's warning; Undo Anyway overwrites it.
    const files = frame.locator(".agent-files");
    await files.waitFor({ state: "visible" });
    assert.match(await files.innerText(), /edited cart\.js\s*\+1\s*−1/);
    writeFileSync(join(folder, "cart.js"), `${readFileSync(join(folder, "cart.js"), "utf8")}// added by hand\n`);
    await files.locator(".actions").getByRole("button", { name: "Undo" }).focus();
    await ui.page.keyboard.press("Enter");
    const warning = ui.page.locator(".monaco-dialog-box");
    await warning.waitFor({ state: "visible" });
    assert.match(await warning.innerText(), /cart\.js changed since Wisp's agent wrote it\. Undo puts back the files as they were before the task, overwriting those changes\./);
    await warning.getByRole("button", { name: "Undo Anyway" }).click();
    await waitFor("the file restored", () => readFileSync(join(folder, "cart.js"), "utf8"), (t) => t === cart);
    await waitFor("the row says undone", () => files.locator(".agent-review").allInnerTexts(), (t) => t.join() === "undone", slow);
    assert.equal(await files.getByRole("button", { name: "Undo" }).count(), 0, "nothing left to undo");
    assert.equal(server.chatRequests.length, 4);
  }).timeout(600_000);

  it("an MCP server's ${input:…} is asked once in a password box, reaches the server, and is written to no settings file", async () => {
    const token = "tok_mcp_e2e_7c41";
    const notes = join(folder, "notes.txt");
    mkdirSync(join(folder, ".vscode"), { recursive: true });
    const config = {
      inputs: [{ type: "promptString", id: "notes-token", description: "Notes token", password: true }],
      servers: { notes: { type: "stdio", command: "node", args: [join(repoRoot, "test", "fixtures", "mcp", "notes-server.mjs")], env: { NOTES_TOKEN: "${input:notes-token}", NOTES_FILE: notes } } },
    };
    writeFileSync(join(folder, ".vscode", "mcp.json"), JSON.stringify(config, null, 2));
    const call = { toolCalls: [{ name: "mcp_notes_add_note", arguments: { text: "from the browser" } }] };
    server.queue(call, { text: "Noted once." }, call, { text: "Noted twice." });
    const before = server.chatRequests.length;
    await startTask("Add a note");

    // The workspace's server asks before its first start, showing what it runs.
    await waitFor("the start card", () => card().locator(".agent-ask").innerText().catch(() => ""), (t) => t === "Start this MCP server?", slow);
    // The environment it is started with (the input as written, never its value), then the command,
    // quoted when the clone's path has a space, as a shell would need it.
    assert.match(await card().locator(".agent-command").innerText(), /^NOTES_TOKEN="\$\{input:notes-token\}" NOTES_FILE=("[^"]*"|\S+) node ("[^"]*notes-server\.mjs"|\S*notes-server\.mjs)$/);
    await card().getByRole("button", { name: "Allow", exact: true }).click();

    // Then its input, in a password box.
    const input = ui.page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    assert.equal(await input.getAttribute("type"), "password");
    await input.fill(token);
    await ui.page.keyboard.press("Enter");

    frame = await new ChatView(ui).frame();
    await waitFor("the call's card", () => card().locator(".agent-ask").innerText().catch(() => ""), (t) => t === "Call this MCP tool?", slow);
    // The tool's description as the server gave it: what the model reads about the tool.
    assert.match(await card().locator(".agent-tool-description").innerText(), /^Description from the server:\s*Adds a note to the notes file and returns it\.$/);
    await card().getByRole("button", { name: "Allow in this session" }).click();
    await waitFor("the first answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("Noted once."), slow);
    assert.match(String((server.chatRequests[before + 1]!.messages as { content: string }[]).at(-1)!.content), /^noted: from the browser \(token of 16 characters\)/);

    // A second task: no input box, no card; the server still has the token.
    await startTask("Add it again");
    await waitFor("the second answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("Noted twice."), slow);
    assert.match(String((server.chatRequests[before + 3]!.messages as { content: string }[]).at(-1)!.content), /\(token of 16 characters\)/);
    assert.equal(readFileSync(notes, "utf8"), "from the browser\nfrom the browser\n");

    // Nowhere in settings: the user's settings.json, the workspace's .vscode folder.
    const settingsFiles = [userSettingsPath(suite.session.userDataDir), ...readdirSync(join(folder, ".vscode")).map((f) => join(folder, ".vscode", f))];
    for (const file of settingsFiles.filter((f) => existsSync(f) && statSync(f).isFile())) assert.ok(!readFileSync(file, "utf8").includes(token), `${file} holds the token`);
  }).timeout(600_000);

  it("the todo list shows above the transcript and survives a reload; Restore Checkpoint and Redo work with the mouse and the keyboard", async () => {
    const notes = join(folder, "notes.md");
    const todo = (...statuses: string[]) => ["Write the notes", "Fix the total", "Run the tests"].map((title, i) => ({ id: i + 1, title, status: statuses[i] }));
    await frame.getByRole("button", { name: "New Chat" }).click();
    await frame.locator(".modes button", { hasText: "Agent" }).click();
    await waitFor("an empty agent chat", async () => [await frame.locator(".turn").count(), await frame.locator(".modes button[aria-pressed=true]").innerText()], ([n, mode]) => n === 0 && mode === "Agent");
    const ask = async (text: string, answer: string) => {
      await startTask(text);
      await waitFor(`the answer "${answer}"`, () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes(answer) && !t.includes("Working…"), slow);
    };
    /** The last task's todo list: whether it is above the task's steps, its items, its progress line. */
    const todos = async (f: Frame) => {
      const turn = f.locator(".turn.assistant").last();
      const above = await turn.evaluate((t) => {
        const list = t.querySelector(".agent-todos");
        const steps = t.querySelector(".agent-steps");
        return list !== null && steps !== null && (list.compareDocumentPosition(steps) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      });
      return { above, items: (await turn.locator(".agent-todos .todo").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()), progress: await turn.locator(".todo-progress").innerText() };
    };
    server.queue(
      { toolCalls: [{ name: "manage_todo_list", arguments: { todoList: todo("in-progress", "not-started", "not-started") } }] },
      { toolCalls: [{ name: "run_in_terminal", arguments: { command: "node --version", explanation: "Which node runs the tests" } }] },
      { toolCalls: [{ name: "create_file", arguments: { path: "notes.md", content: "# Notes\r\n" } }] },
      { toolCalls: [{ name: "manage_todo_list", arguments: { todoList: todo("completed", "in-progress", "not-started") } }] },
      { text: "Notes written." },
    );

    // While the task works (here: waits on a command's card), its list is drawn above its transcript.
    await startTask("Write notes, then fix the total");
    await waitFor("the command's card", () => card().locator(".agent-explanation").innerText().catch(() => ""), (t) => t === "Which node runs the tests", slow);
    assert.deepEqual(await todos(frame), { above: true, items: ["◐ Write the notes in progress", "○ Fix the total not started", "○ Run the tests not started"], progress: "0 of 3 done" });
    await card().getByRole("button", { name: "Allow", exact: true }).click();
    await waitFor("the answer \"Notes written.\"", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("Notes written.") && !t.includes("Working…"), slow);
    assert.equal(await frame.locator(".turn.assistant").last().locator(".todo-progress").innerText(), "1 of 3 done", "the list follows the task's update");
    server.queue({ toolCalls: [{ name: "replace_string_in_file", arguments: { path: "cart.js", old_string: "sum + item.price,", new_string: "sum + item.price * item.qty," } }] }, { text: "Total fixed." });
    await ask("Now fix the total", "Total fixed.");
    const fixed = cart.replace("sum + item.price,", "sum + item.price * item.qty,");
    assert.equal(readFileSync(join(folder, "cart.js"), "utf8"), fixed);

    // The open list went on with the second request: shown above its transcript, item by item.
    const expected = { above: true, items: ["✓ Write the notes done", "◐ Fix the total in progress", "○ Run the tests not started"], progress: "1 of 3 done" };
    assert.deepEqual(await todos(frame), expected);
    assert.equal(await frame.locator(".turn.assistant").first().locator(".agent-todos").innerText().then((t) => t.replace(/\s+/g, " ").trim()), "Todos 1 of 3 done", "an earlier task's list folds to its progress");

    // Kept with the chat: after a reload of the window the list is drawn again.
    // Ready when the workbench is drawn again (waitReady), not when every script has loaded.
    await ui.page.reload({ waitUntil: "commit" });
    await ui.waitReady();
    frame = await new ChatView(ui).frame(120_000);
    await waitFor("the chat restored", () => frame.locator(".turn").count(), (n) => n === 4, slow);
    assert.deepEqual(await todos(frame), expected);

    // Restore Checkpoint on the first request, with the mouse: confirmed in place, naming the files.
    const firstRequest = frame.locator(".turn.user").first();
    await firstRequest.getByRole("button", { name: "Restore Checkpoint" }).click();
    const confirm = firstRequest.locator(".checkpoint-confirm");
    await confirm.waitFor({ state: "visible" });
    assert.match(await confirm.innerText(), /This request and the one after it are removed from the chat, and these files go back as before it: notes\.md, cart\.js\./);
    await confirm.getByRole("button", { name: "Restore", exact: true }).click();
    await waitFor("the files as before the first request", () => [existsSync(notes), readFileSync(join(folder, "cart.js"), "utf8")], ([exists, text]) => exists === false && text === cart, slow);
    await waitFor("the turns removed", () => frame.locator(".turn").count(), (n) => n === 0, slow);
    const redoBar = frame.locator(".checkpoint-redo");
    assert.equal(await redoBar.locator("span").innerText(), "Checkpoint restored: 2 requests removed, 2 files put back.");

    // Redo survives a reload, and works from the keyboard.
    await ui.page.reload({ waitUntil: "commit" });
    await ui.waitReady();
    frame = await new ChatView(ui).frame(120_000);
    const redo = frame.locator(".checkpoint-redo").getByRole("button", { name: "Redo" });
    await redo.waitFor({ state: "visible", timeout: slow });
    await redo.focus();
    await ui.page.keyboard.press("Enter");
    await waitFor("the files back", () => [existsSync(notes) && readFileSync(notes, "utf8"), readFileSync(join(folder, "cart.js"), "utf8")], ([text, cartText]) => text === "# Notes\r\n" && cartText === fixed, slow);
    await waitFor("the turns back", () => frame.locator(".turn").count(), (n) => n === 4, slow);
    assert.equal(await frame.locator(".checkpoint-redo").isVisible(), false);

    // The second request's checkpoint from the keyboard: Escape cancels, Enter on Restore restores.
    const secondRequest = frame.locator(".turn.user").nth(1);
    const restoreButton = secondRequest.getByRole("button", { name: "Restore Checkpoint" });
    await restoreButton.focus();
    await ui.page.keyboard.press("Enter");
    await secondRequest.locator(".checkpoint-confirm").waitFor({ state: "visible" });
    assert.equal(await secondRequest.locator(".checkpoint-confirm").getByRole("button", { name: "Restore", exact: true }).evaluate((b) => b === document.activeElement), true, "Restore has the focus");
    await ui.page.keyboard.press("Escape");
    await secondRequest.locator(".checkpoint-confirm").waitFor({ state: "hidden" });
    assert.equal(await restoreButton.evaluate((b) => b === document.activeElement), true, "the focus is back on Restore Checkpoint");
    assert.equal(readFileSync(join(folder, "cart.js"), "utf8"), fixed, "Escape restored nothing");
    await ui.page.keyboard.press("Enter");
    await secondRequest.locator(".checkpoint-confirm").waitFor({ state: "visible" });
    await ui.page.keyboard.press("Enter");
    await waitFor("cart.js as before the second request", () => readFileSync(join(folder, "cart.js"), "utf8"), (text) => text === cart, slow);
    assert.equal(readFileSync(notes, "utf8"), "# Notes\r\n", "the first request's file stays");
    await waitFor("the second request removed", () => frame.locator(".turn").count(), (n) => n === 2, slow);
  }).timeout(900_000);

  it("Delete Chat while its task waits on an approval card stops the task, and the command is never run", async () => {
    const ran = join(folder, "ran.txt");
    await frame.getByRole("button", { name: "New Chat" }).click();
    await frame.locator(".modes button", { hasText: "Agent" }).click();
    await waitFor("an empty agent chat", async () => [await frame.locator(".turn").count(), await frame.locator(".modes button[aria-pressed=true]").innerText()], ([n, mode]) => n === 0 && mode === "Agent");
    server.queue({ toolCalls: [{ name: "run_in_terminal", arguments: { command: "node -e \"require('fs').writeFileSync('ran.txt', 'ran')\"", explanation: "Write a marker" } }] });
    await startTask("Write the marker");
    await waitFor("the command's card", () => card().locator(".agent-explanation").innerText().catch(() => ""), (t) => t === "Write a marker", slow);

    const titles = () => frame.locator('select[aria-label="Chat"] option').allInnerTexts();
    const stoppedBefore = stoppedAnswers();
    await frame.locator('button[aria-label="Delete Chat"]').click();
    await ui.page.locator(".monaco-dialog-box").getByRole("button", { name: "Delete" }).click();
    await waitFor("the chat deleted", titles, (t) => !t.includes("Write the marker"));
    // The task ends as stopped (the card can no longer be answered; it used to wait for ever).
    await waitFor("the task stopped", stoppedAnswers, (n) => n === stoppedBefore + 1, slow);
    assert.equal(existsSync(ran), false, "the command never ran");
  }).timeout(600_000);

  /** How many answers (or tasks) Wisp's log says were stopped. */
  function stoppedAnswers(): number {
    return readWispLog(suite.session.userDataDir).split("\n").filter((line) => line.includes("chat: answer stopped")).length;
  }

  async function normalised(): Promise<string[]> {
    return (await rows()).map((r) => r.replace(/\s+/g, " ").trim());
  }
});
