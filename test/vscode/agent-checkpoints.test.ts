import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { TodoItem } from "../../src/core/agent/todo-list";
import { chatKey } from "../../src/core/chat/chat-store";
import type { AssistantTurn, Chat } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, toolResults } from "./support/agent-task";
import { resetFolder } from "./support/write-file-seen";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const dir = "agent-checkpoints";
const cart = `${dir}/cart.js`;
const notes = `${dir}/notes/NOTES.md`;
// A BOM, CRLF and no final newline: the bytes a text round trip would change.
const cartSource = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("exports.total = (items) =>\r\n  items.reduce((sum, item) => sum + item.price, 0);")]);

describe("Agent mode: checkpoints per request and the todo list (real VS Code, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const abs = (path: string) => join(workspace, path);
  const bytes = (path: string) => (existsSync(abs(path)) ? readFileSync(abs(path)) : undefined);
  const state = () => api.chat.state();
  const userTurns = () => state().chat.turns.filter((t) => t.role === "user").map((t) => t.id);
  const { answer, approve, ended } = agentTaskView(() => api);

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-checkpoint-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    await api.chat.fromView({ type: "setMode", mode: "agent" });
    await vscode.commands.executeCommand("wisp.chat.focus");
    await waitFor("the chat view", () => api.chat.viewReady(), (ready) => ready);
  });
  beforeEach(async () => {
    await resetFolder(abs(dir), { "cart.js": cartSource });
    await api.chat.fromView({ type: "newChat" });
  });
  afterEach(() => api.chat.fromView({ type: "stop" }));
  after(async () => {
    await api.chat.fromView({ type: "setMode", mode: "ask" });
    await api.chat.fromView({ type: "newChat" });
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(abs(dir), { recursive: true, force: true });
    await resetWisp();
    await server?.close();
  });

  /** Sends a request the way the chat view does and waits for its task to end. */
  async function request(text: string, ...answers: Parameters<ScriptedChatServer["queue"]>): Promise<void> {
    server.queue(...answers);
    await api.chat.fromView({ type: "send", text });
    await ended();
  }
  const edit = (path: string, old_string: string, new_string: string) => ({ toolCalls: [{ name: "replace_string_in_file", arguments: { path, old_string, new_string } }] });
  const create = (path: string, content: string) => ({ toolCalls: [{ name: "create_file", arguments: { path, content } }] });

  /** Three requests on two files: 1 edits cart.js and creates NOTES.md, 2 edits NOTES.md, 3 edits both. */
  async function threeRequests(): Promise<{ cart: Buffer; notes: Buffer }[]> {
    await request("first", edit(cart, "item.price,", "item.price * item.qty,"), create(notes, "# Notes\n"), { text: "one" });
    const afterOne = { cart: bytes(cart)!, notes: bytes(notes)! };
    await request("second", edit(notes, "# Notes\n", "# Notes\n\n- prices in cents\n"), { text: "two" });
    await request("third", edit(cart, "(sum, item)", "(total, item)"), edit(notes, "- prices in cents", "- prices in cents\n- quantities are whole"), { text: "three" });
    const afterThree = { cart: bytes(cart)!, notes: bytes(notes)! };
    // The agent's edits keep the file's byte order mark and its CRLF line ends.
    assert.equal(afterThree.cart.toString("utf8"), "\ufeffexports.total = (items) =>\r\n  items.reduce((total, item) => sum + item.price * item.qty, 0);");
    return [afterOne, afterThree];
  }

  it("Restore Checkpoint across three requests touching two files gives back the exact bytes, and Redo restores them", async () => {
    const [afterOne, afterThree] = await threeRequests();
    const [r1, r2, r3] = userTurns();
    assert.deepEqual(state().checkpoints?.requests, [r1, r2, r3]);

    await api.chat.fromView({ type: "agentRestore", turnId: r1 });
    assert.deepEqual(bytes(cart), cartSource, "cart.js: the exact bytes before request 1");
    assert.equal(bytes(notes), undefined, "NOTES.md was created by request 1: deleted");
    assert.deepEqual(state().chat.turns, [], "request 1 and the later ones are removed");
    assert.deepEqual(state().checkpoints, { requests: [], redo: { requests: 3, files: 2 } });
    await waitFor("the view told", () => api.chat.posted()?.checkpoints, (c) => JSON.stringify(c) === JSON.stringify({ requests: [], redo: { requests: 3, files: 2 } }));
    assert.match(state().notice!.text, /^Checkpoint restored: 2 files as before that request, 3 requests removed\. Redo brings them back/);

    await api.chat.fromView({ type: "agentRedo" });
    assert.deepEqual(bytes(cart), afterThree.cart);
    assert.deepEqual(bytes(notes), afterThree.notes);
    assert.deepEqual(userTurns(), [r1, r2, r3]);
    assert.equal(answer()!.text, "three");
    assert.deepEqual(state().checkpoints, { requests: [r1, r2, r3] });

    // Request 2 never touched cart.js: it goes back to before request 3, NOTES.md to before request 2.
    await api.chat.fromView({ type: "agentRestore", turnId: r2 });
    assert.deepEqual(bytes(cart), afterOne.cart);
    assert.deepEqual(bytes(notes), afterOne.notes);
    assert.deepEqual(userTurns(), [r1]);

    // A new request gives Redo up: the restored files stay.
    await request("something else", { text: "fresh start" });
    assert.equal(state().checkpoints?.redo, undefined);
    await api.chat.fromView({ type: "agentRedo" });
    assert.match(state().notice!.text, /^There is nothing to redo/);
    assert.deepEqual(bytes(cart), afterOne.cart);
    assert.equal(userTurns().length, 2);
  });

  it("with the file open in an editor, Undo, Restore Checkpoint and Redo report done once the editor shows the rewritten text (the text the next task reads)", async () => {
    const document = await vscode.workspace.openTextDocument(abs(cart));
    await vscode.window.showTextDocument(document, { preview: false });
    const original = document.getText();
    assert.match(original, /^exports\.total = \(items\) =>\r\n/, "the editor shows the file (no BOM in the text, CRLF kept)");

    await request("first", edit(cart, "item.price,", "item.price * item.qty,"), { text: "one" });
    assert.match(document.getText(), /item\.price \* item\.qty,/, "the task's edit is in the editor");
    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.equal(answer()!.agent!.files[0]!.review, "undone");
    assert.equal(document.getText(), original, "Undo: the editor shows the restored text when it reports done");

    await request("second", edit(cart, "(sum, item)", "(total, item)"), { text: "two" });
    const edited = document.getText();
    assert.match(edited, /\(total, item\)/);
    const [, r2] = userTurns();
    await api.chat.fromView({ type: "agentRestore", turnId: r2! });
    assert.deepEqual(bytes(cart), cartSource);
    assert.equal(document.getText(), original, "Restore Checkpoint: the editor shows the restored text when it reports done");
    await api.chat.fromView({ type: "agentRedo" });
    assert.match(state().notice!.text, /^Redone/);
    assert.equal(document.getText(), edited, "Redo: the editor shows the task's text again when it reports done");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("a file the task created, still open in an editor after Undo deleted it, does not exist for the next task (not the editor's leftover text)", async () => {
    await request("first", create(notes, "# Notes\n"), { text: "one" });
    const document = await vscode.workspace.openTextDocument(abs(notes));
    await vscode.window.showTextDocument(document, { preview: false });
    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.equal(bytes(notes), undefined, "Undo deleted the file it created");
    assert.equal(document.isClosed, false, "VS Code keeps its editor open");

    const before = server.chatRequests.length;
    await request("read it, make it again", { toolCalls: [{ name: "read_file", arguments: { path: notes } }] }, create(notes, "# Again\n"), { text: "made" });
    assert.deepEqual(toolResults(server.chatRequests[before + 1]!), [`Error: ${notes} does not exist.`]);
    assert.equal(toolResults(server.chatRequests[before + 2]!).at(-1), `Created ${notes} (+1 −0).`);
    assert.equal(bytes(notes)?.toString(), "# Again\n", "made again on disk");
    assert.equal(document.getText(), "# Again\n", "and in the editor left open on it");
    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.equal(bytes(notes), undefined, "Undo deletes it again");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("while one chat's task runs, another chat's task does not start (its Undo would take the first one's originals): it says why, and starts once the first ends", async () => {
    server.queue(edit(cart, "item.price,", "item.price * item.qty,"), { toolCalls: [{ name: "run_in_terminal", arguments: { command: "echo checked" } }] }, { text: "first done" });
    void api.chat.fromView({ type: "send", text: "first" });
    const card = await waitFor("the first task's command card", () => answer()?.agent?.steps.find((s) => s.kind === "tool" && s.status === "asking"), (s) => s !== undefined);
    const first = state().chat.id;
    const edited = bytes(cart);

    await api.chat.fromView({ type: "newChat" });
    const requests = server.chatRequests.length;
    await api.chat.fromView({ type: "send", text: "second" });
    const refused = (await ended())!;
    assert.match(refused.text, /^Another chat's agent task is running \("first"\)\. One task changes the workspace at a time/);
    assert.equal(server.chatRequests.length, requests, "the second task asked the model nothing");
    assert.deepEqual(bytes(cart), edited, "and touched no file");
    await api.chat.fromView({ type: "agentContinue" });
    assert.match(state().notice!.text, /^Another chat's agent task is running/, "Continue says the same");

    await api.chat.fromView({ type: "switchChat", id: first });
    await api.chat.fromView({ type: "agentApproval", stepId: card!.id, answer: "allow" });
    assert.equal((await ended())!.text, "first done");
    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.deepEqual(bytes(cart), cartSource, "the first task's Undo gives back its own original");
    await api.chat.fromView({ type: "newChat" });
    await request("second again", edit(cart, "(sum, item)", "(total, item)"), { text: "second done" });
    assert.equal(answer()!.text, "second done", "with the first one ended, the next chat's task runs");
  });

  it("Retry on a task the server failed mid-way goes on with the task: its steps, its change and its Undo stay, and the model is asked again with its tools", async () => {
    server.queue(edit(cart, "item.price,", "item.price * item.qty,"), { error: { status: 500, message: "The server had an error while processing your request.", type: "server_error" } });
    await api.chat.fromView({ type: "send", text: "fix the total" });
    const failed = (await ended())!;
    assert.equal(failed.status, "error");
    assert.equal(failed.agent!.files[0]!.path, cart);
    const requests = server.chatRequests.length;

    server.queue({ text: "Fixed after the retry." });
    await api.chat.fromView({ type: "errorAction", action: "retry" });
    await waitFor("the retried task's answer", () => answer(), (t) => t?.id === failed.id && t.status === "done");
    const retried = answer()!;
    assert.equal(retried.text, "Fixed after the retry.");
    assert.equal(state().chat.turns.length, 2, "the same question and the same task, not a new answer");
    assert.deepEqual(retried.agent!.files.map((f) => [f.path, f.review]), [[cart, "pending"]], "the task's change is still to review");
    const again = server.chatRequests[requests]!;
    assert.ok(Array.isArray(again.tools) && again.tools.length > 0, "asked again with the tools");
    assert.match(toolResults(again).join("\n"), /Edited agent-checkpoints\/cart\.js/, "and with what the task did so far");
    await api.chat.fromView({ type: "agentReview", turnId: retried.id, action: "undo" });
    assert.deepEqual(bytes(cart), cartSource, "its Undo gives back the original");
  });

  it("a file changed by hand since the agent wrote it is not overwritten without a yes (the test host refuses the dialog), by Restore or by the task's Undo; put back as the task left it, Undo works", async () => {
    const [, afterThree] = await threeRequests();
    const [r1, , r3] = userTurns();
    const byHand = Buffer.from("// rewritten by hand\r\n");
    writeFileSync(abs(cart), byHand);
    await api.chat.fromView({ type: "agentRestore", turnId: r3 });
    assert.equal(state().notice!.text, "Nothing was restored.");
    assert.deepEqual(bytes(cart), byHand);
    assert.equal(userTurns().length, 3);
    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.equal(state().notice!.text, "Nothing was undone.");
    assert.deepEqual(bytes(cart), byHand);
    writeFileSync(abs(cart), afterThree!.cart);

    // The last task's Undo (its own Keep/Undo) puts its files back; a restore after it asks nothing.
    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.equal(bytes(notes)!.toString(), "# Notes\n\n- prices in cents\n");
    await api.chat.fromView({ type: "agentRestore", turnId: r1 });
    assert.deepEqual(bytes(cart), cartSource);
    assert.equal(bytes(notes), undefined);
    assert.deepEqual(state().chat.turns, []);
  });

  it("the todo list: shown and updated as the webview receives it, the model sees it, and it is kept with the chat on disk", async () => {
    const todo = (...statuses: TodoItem["status"][]): TodoItem[] => ["Read the cart", "Fix the total", "Run the tests"].map((title, i) => ({ id: i + 1, title, status: statuses[i]! }));
    const viewTodos = () => (api.chat.posted()?.chat.turns.at(-1) as AssistantTurn | undefined)?.agent?.todos;
    server.queue(
      { toolCalls: [{ name: "manage_todo_list", arguments: { todoList: todo("completed", "in-progress", "not-started") } }] },
      { toolCalls: [{ name: "run_in_terminal", arguments: { command: "node -e \"console.log(1)\"", explanation: "Check" } }] },
      { toolCalls: [{ name: "manage_todo_list", arguments: { todoList: todo("completed", "completed", "in-progress") } }] },
      { text: "Done with two of three." },
    );
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Fix the cart in steps" });
    // While the command's card waits, the view already has the first list.
    await waitFor("the first list in the view", viewTodos, (todos) => JSON.stringify(todos) === JSON.stringify(todo("completed", "in-progress", "not-started")));
    await approve(1, "allow");
    await task;
    await ended();
    await waitFor("the updated list in the view", viewTodos, (todos) => JSON.stringify(todos) === JSON.stringify(todo("completed", "completed", "in-progress")));
    const requests = server.chatRequests.slice(before);
    assert.match(toolResults(requests[1]!).at(-1)!, /^Todo list saved: 1 of 3 completed\.\n- \[x\] 1\. Read the cart\n- \[-\] 2\. Fix the total\n- \[ \] 3\. Run the tests$/);
    assert.deepEqual(answer()!.agent!.steps.filter((s) => s.kind === "tool").map((s) => s.title), ["created 3 todos", "ran node -e \"console.log(1)\"", "started (3/3) Run the tests"]);

    // What the next window reads: the chat as stored in the workspace's storage.
    await api.chat.flush();
    const userData = process.env.WISP_TEST_USER_DATA_DIR ?? "";
    const file = `${encodeURIComponent(chatKey(state().chat.id))}.json`;
    const found = readdirSync(userData, { recursive: true, encoding: "utf8" }).find((path) => path.endsWith(`/chats/${file}`));
    assert.ok(found, `the stored chat ${file} under ${userData}`);
    const stored = JSON.parse(readFileSync(join(userData, found), "utf8")) as Chat;
    assert.deepEqual((stored.turns.at(-1) as AssistantTurn).agent!.todos, todo("completed", "completed", "in-progress"));

    // The next request carries the open list to the model, and shows it.
    await request("Finish it", { text: "Finished." });
    const carried = (server.chatRequests.at(-1)!.messages as { role: string; content: string }[])[1]!;
    assert.match(carried.content, /^Finish it\n\n\[Your todo list from earlier in this conversation; update it with manage_todo_list as you work:\n- \[x\] 1\. Read the cart/);
    assert.deepEqual(viewTodos(), todo("completed", "completed", "in-progress"));
  });
});
