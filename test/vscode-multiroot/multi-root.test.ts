import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { codeBlockPath } from "../../src/core/chat/code-block-path";
import type { UserTurn } from "../../src/core/chat/conversation";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, closeAgentSuite, openAgentSuite, toolResults, type AgentSuite } from "../vscode/support/agent-task";
import { writeFileSeen } from "../vscode/support/write-file-seen";
import { wispExtensionId } from "../vscode/support/wisp-extension";

// The runner opens test/vscode-multiroot's workspace.json: folders alpha and beta, in this folder.
const workspace = process.env.WISP_TEST_WORKSPACE ?? "";

const greet = (name: string) => `export function greet(): string {\n  return "${name}";\n}\n// ${name} marker wispMultiRoot\n`;
// The same path in both folders, and a file only beta has.
const files: Record<string, string> = {
  "alpha/src/index.ts": greet("alpha"),
  "beta/src/index.ts": greet("beta"),
  "beta/src/only-beta.ts": 'export const betaOnly = "wispBetaOnly";\n',
};

describe("A multi-root workspace: paths name one file (real VS Code, two folders, scripted model)", function () {
  this.timeout(120_000);
  let suite: AgentSuite;
  const abs = (path: string) => join(workspace, path);
  const read = (path: string) => (existsSync(abs(path)) ? readFileSync(abs(path), "utf8") : undefined);
  const { answer, ended } = agentTaskView(() => suite.api);

  before(async () => {
    suite = await openAgentSuite("sk-multi-root-test");
    assert.deepEqual(vscode.workspace.workspaceFolders?.map((f) => f.name), ["alpha", "beta"], "the runner opened both folders");
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(abs(path)), { recursive: true });
      writeFileSync(abs(path), text);
    }
    // @file lists the index's files by the name the chat gives them: each folder's src/index.ts, under its folder.
    await waitFor(
      "both folders' files indexed",
      () => suite.api.chat.mentions("file", "index"),
      (items) => ["alpha/src/index.ts", "beta/src/index.ts"].every((path) => items.some((i) => i.detail === path)),
      60_000,
    );
  });
  beforeEach(async () => {
    // Only files a test changed are written back, each seen by the document VS Code holds for it: a
    // document loaded before a write it has not seen yet refuses the next save (the file on disk
    // is newer), which left beta's file unchanged after Accept and save on a loaded machine.
    for (const [path, text] of Object.entries(files)) if (read(path) !== text) await writeFileSeen(abs(path), text);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await suite.api.chat.fromView({ type: "newChat" });
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const folder of ["alpha", "beta"]) rmSync(abs(`${folder}/src`), { recursive: true, force: true });
    await closeAgentSuite(suite);
  });

  it("a selection in beta's src/index.ts goes as beta/src/index.ts, and Apply on the answer's block edits beta's file, not alpha's", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "ask" });
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(abs("beta/src/index.ts")));
    editor.selection = new vscode.Selection(0, 0, 3, 0);
    await vscode.commands.executeCommand("wisp.askAboutSelection");
    assert.deepEqual(suite.api.chat.state().chat.pending.map((a) => a.path), ["beta/src/index.ts"]);

    const block = ["// beta/src/index.ts", "export function greet(): string {", '  return "BETA";', "}"];
    suite.server.queue({ text: `Upper-case it:\n\n\`\`\`ts\n${block.join("\n")}\n\`\`\`\n` });
    await suite.api.chat.fromView({ type: "send", text: "Make it shout." });
    const question = suite.api.chat.state().chat.turns.filter((t): t is UserTurn => t.role === "user").at(-1)!;
    assert.deepEqual(question.attachments.map((a) => a.path), ["beta/src/index.ts"]);
    const sent = JSON.stringify(suite.server.chatRequests.at(-1)!.messages);
    assert.ok(sent.includes("beta/src/index.ts"), "the model is told which folder's file it is");

    // The path the chat view reads off the block, as its Apply button sends it.
    const path = codeBlockPath(block[0]!, []);
    assert.equal(path, "beta/src/index.ts");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await suite.api.chat.fromView({ type: "codeAction", action: "apply", code: `${block.slice(1).join("\n")}\n`, language: "typescript", path });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, vscode.Uri.file(abs("beta/src/index.ts")).fsPath, "Apply opened beta's file");
    assert.equal(suite.api.edit.sessions()[0]?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept");
    const document = vscode.window.activeTextEditor!.document;
    assert.equal(await document.save(), true, "beta's file saved");
    assert.equal(read("beta/src/index.ts"), greet("beta").replace('"beta"', '"BETA"'));
    assert.equal(read("alpha/src/index.ts"), greet("alpha"), "alpha's src/index.ts is left alone");
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === vscode.Uri.file(abs("alpha/src/index.ts")).fsPath && d.isDirty));
  });

  it("Apply on a path that both folders have, without a folder, edits neither and says so", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "ask" });
    const failed = await suite.api.chat
      .fromView({ type: "codeAction", action: "apply", code: 'export function greet(): string {\n  return "WHICH";\n}\n', language: "typescript", path: "src/index.ts" })
      .then(() => undefined, (error: Error) => error.message);
    assert.match(failed ?? suite.api.chat.state().notice?.text ?? "", /src\/index\.ts is not a file of this workspace/);
    assert.deepEqual(suite.api.edit.sessions(), [], "no change opened for review");
    assert.equal(read("alpha/src/index.ts"), greet("alpha"));
    assert.equal(read("beta/src/index.ts"), greet("beta"));
  });

  it("the agent works in alpha: its search reports alpha's lines only, never beta's under alpha's paths", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    const requests = suite.server.chatRequests.length;
    suite.server.queue(
      { toolCalls: [{ name: "grep_search", arguments: { query: "wispBetaOnly" } }] },
      { toolCalls: [{ name: "grep_search", arguments: { query: "wispMultiRoot" } }] },
      { text: "Searched." },
    );
    await suite.api.chat.fromView({ type: "send", text: "Where are the markers?" });
    await ended();
    const sent = suite.server.chatRequests.slice(requests);
    assert.equal(toolResults(sent[1]!).at(-1), "No matches.", "beta's only-beta.ts is not reported as alpha's src/only-beta.ts");
    const shared = toolResults(sent[2]!).at(-1)!;
    assert.match(shared, /^src\/index\.ts:4: \/\/ alpha marker wispMultiRoot$/m);
    assert.ok(!shared.includes("beta marker"), shared);
    // The model is told why beta's files are out of reach.
    assert.match(String((sent[0]!.messages as { content: unknown }[])[0]!.content), /other folders too \("beta"\): your tools do not reach them/);
    assert.equal(answer()?.status, "done");
  });

  it("the agent's edit lands in alpha's src/index.ts, beta's stays, and Undo restores alpha's file", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    suite.server.queue(
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/index.ts", old_string: 'return "alpha";', new_string: 'return "ALPHA";' } }] },
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/only-beta.ts", old_string: "wispBetaOnly", new_string: "renamed" } }] },
      { text: "Done." },
    );
    await suite.api.chat.fromView({ type: "send", text: "Shout in greet, and rename the beta marker." });
    const turn = (await ended())!;
    assert.equal(read("alpha/src/index.ts"), greet("alpha").replace('"alpha"', '"ALPHA"'));
    assert.equal(read("beta/src/index.ts"), greet("beta"), "beta's file of the same path is untouched");
    assert.equal(read("beta/src/only-beta.ts"), files["beta/src/only-beta.ts"], "beta's file is out of the agent's reach");
    assert.equal(read("alpha/src/only-beta.ts"), undefined, "and no file of that name was made in alpha");
    assert.deepEqual(turn.agent!.files.map((f) => f.path), ["src/index.ts"]);

    await suite.api.chat.fromView({ type: "agentReview", turnId: turn.id, action: "undo" });
    await waitFor("the change undone", () => answer()!.agent!.files.map((f) => f.review), (reviews) => reviews.every((r) => r === "undone"));
    assert.equal(read("alpha/src/index.ts"), greet("alpha"), "Undo restored alpha's file");
    assert.equal(read("beta/src/index.ts"), greet("beta"));
  });

  it("with beta's file in the editor the agent works in beta: its edit lands there, Open Diff and Undo use beta's file, and the chat's next task stays there; a task that names alpha's file works in alpha", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    await vscode.window.showTextDocument(vscode.Uri.file(abs("beta/src/only-beta.ts")));
    const requests = suite.server.chatRequests.length;
    suite.server.queue({ toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/index.ts", old_string: 'return "beta";', new_string: 'return "BETA";' } }] }, { text: "Done." });
    await suite.api.chat.fromView({ type: "send", text: "Shout in greet." });
    const turn = (await ended())!;
    assert.equal(read("beta/src/index.ts"), greet("beta").replace('"beta"', '"BETA"'), "the edit landed in the editor's folder");
    assert.equal(read("alpha/src/index.ts"), greet("alpha"), "alpha's file of the same path is untouched");
    assert.match(String((suite.server.chatRequests[requests]!.messages as { content: unknown }[])[0]!.content), /other folders too \("alpha"\): your tools do not reach them, so work in "beta" only/);
    assert.equal(turn.agent!.folder, "beta", "the chat names the task's files under beta");
    // The diff the task's file list opens compares beta's file with what it was.
    await suite.api.chat.fromView({ type: "agentDiff", path: "src/index.ts" });
    await waitFor("beta's file in the diff", () => vscode.window.activeTextEditor?.document.uri.fsPath, (path) => path === vscode.Uri.file(abs("beta/src/index.ts")).fsPath);
    await suite.api.chat.fromView({ type: "agentReview", turnId: turn.id, action: "undo" });
    await waitFor("the change undone", () => answer()!.agent!.files.map((f) => f.review), (reviews) => reviews.every((r) => r === "undone"));
    assert.equal(read("beta/src/index.ts"), greet("beta"), "Undo restored beta's file");
    // The diff left beta's file open: Undo reports done once the editor shows the restored text, which the next task reads.
    const betaOpen = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === vscode.Uri.file(abs("beta/src/index.ts")).fsPath);
    assert.equal(betaOpen?.getText(), greet("beta"), "the editor shows beta's restored file");

    // The chat's next task stays in beta with alpha's file in the editor: the paths of its earlier steps mean beta's files.
    await vscode.window.showTextDocument(vscode.Uri.file(abs("alpha/src/index.ts")));
    suite.server.queue({ toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/index.ts", old_string: 'return "beta";', new_string: 'return "Beta";' } }] }, { text: "Done." });
    await suite.api.chat.fromView({ type: "send", text: "Capitalise it instead." });
    // The chat's first answer is done already: the second one is waited for first.
    await waitFor("the second task's answer", () => answer()?.id, (id) => id !== turn.id);
    await ended();
    assert.equal(read("beta/src/index.ts"), greet("beta").replace('"beta"', '"Beta"'));
    assert.equal(read("alpha/src/index.ts"), greet("alpha"));

    // A question that names alpha's file works in alpha, whatever the editor shows.
    await vscode.window.showTextDocument(vscode.Uri.file(abs("beta/src/only-beta.ts")));
    await suite.api.chat.fromView({ type: "newChat" });
    suite.server.queue({ toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/index.ts", old_string: 'return "alpha";', new_string: 'return "ALPHA";' } }] }, { text: "Done." });
    await suite.api.chat.fromView({ type: "send", text: "Shout in greet of alpha/src/index.ts." });
    await ended();
    assert.equal(read("alpha/src/index.ts"), greet("alpha").replace('"alpha"', '"ALPHA"'));
    assert.equal(read("beta/src/index.ts"), greet("beta").replace('"beta"', '"Beta"'));
  });
});

describe("A multi-root workspace: each folder's prompt files, agents, instructions, AGENTS.md and MCP servers; /init and the terminal follow the folder in use (real VS Code, two folders, scripted model)", function () {
  this.timeout(180_000);
  let suite: AgentSuite;
  const abs = (path: string) => join(workspace, path);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(abs(path)), { recursive: true });
    writeFileSync(abs(path), text);
  };
  const read = (path: string) => (existsSync(abs(path)) ? readFileSync(abs(path), "utf8") : undefined);
  const written = ["alpha/.github", "beta/.github", "alpha/AGENTS.md", "beta/AGENTS.md", "alpha/.vscode", "beta/.vscode", "alpha/src", "beta/src", "alpha/mcp-notes.txt", "beta/mcp-notes.txt", "alpha/ran-here.txt", "beta/ran-here.txt"];
  const state = () => suite.api.chat.state();
  const { answer, steps, approve, ended } = agentTaskView(() => suite.api);
  const lastRequest = () => suite.server.chatRequests.at(-1)! as { messages: { role: string; content: unknown }[] };
  /** The MCP server fixture that appends each note to NOTES_FILE. */
  const notesServer = () => join(vscode.extensions.getExtension(wispExtensionId)!.extensionPath, "test", "fixtures", "mcp", "notes-server.mjs");
  const system = () => String(lastRequest().messages[0]!.content);
  const lastMessage = () => String(lastRequest().messages.at(-1)!.content);
  /** Files written here reach Wisp through VS Code's file watcher, which a loaded machine can hold up a while. */
  const watched = 90_000;

  before(async () => {
    suite = await openAgentSuite("sk-multi-root-customization-test");
    for (const folder of ["alpha", "beta"]) write(`${folder}/src/index.ts`, greet(folder));
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await suite.api.chat.fromView({ type: "setMode", mode: "ask" });
    await suite.api.chat.fromView({ type: "newChat" });
  });
  afterEach(() => suite.api.chat.fromView({ type: "stop" }));
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const path of written) rmSync(abs(path), { recursive: true, force: true });
    await closeAgentSuite(suite);
  });

  /** Asks about the first lines of a folder's src/index.ts, selected in its editor. */
  async function askAbout(folder: string, question: string): Promise<void> {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(abs(`${folder}/src/index.ts`)));
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    suite.server.queue({ text: "Answered." });
    await vscode.commands.executeCommand("wisp.askAboutSelection", question);
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);
  }

  /** Sends a / command and waits for its answer. */
  async function run(command: string): Promise<void> {
    suite.server.queue({ text: "Done." });
    const before = suite.server.chatRequests.length;
    await suite.api.chat.fromView({ type: "send", text: command });
    await waitFor(`${command} sent`, () => suite.server.chatRequests.length, (n) => n > before);
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);
  }

  it("prompt files and agents of both folders are offered; a name both use is /NAME (the first folder's) and /beta:NAME, each running its own folder's file with ${workspaceFolder} its folder", async () => {
    const review = "---\ndescription: Review the change\n---\nReview it in ${workspaceFolderBasename}.\n";
    write("alpha/.github/prompts/review.prompt.md", review);
    write("beta/.github/prompts/review.prompt.md", review);
    for (const folder of ["alpha", "beta"]) write(`${folder}/.github/agents/reviewer.agent.md`, `---\ndescription: Reviews ${folder}\n---\nReview ${folder}.\n`);
    // Written last: once it is read, so are the others.
    write("beta/.github/prompts/release.prompt.md", "---\ndescription: Release notes\n---\nWrite the release notes of ${workspaceFolderBasename}.\n");
    await waitFor("the prompt files read", () => state().commands.map((c) => c.name), (names) => names.includes("release") && names.includes("review"), watched);

    const prompts = state().commands.filter((c) => c.kind === "prompt").map((c) => [c.name, c.description]);
    assert.deepEqual(prompts, [["review", "Review the change (alpha)"], ["release", "Release notes"], ["beta:review", "Review the change (beta)"]]);
    assert.deepEqual(state().agents.map((a) => [a.label, a.description]).slice(1), [["reviewer", "Reviews alpha"], ["beta:reviewer", "Reviews beta"]]);

    await run("/beta:review");
    assert.match(lastMessage(), /^Review it in beta\.(\n|$)/);
    await run("/review");
    assert.match(lastMessage(), /^Review it in alpha\.(\n|$)/);
    await run("/release");
    assert.match(lastMessage(), /^Write the release notes of beta\.(\n|$)/, "beta's prompt file works in beta");
  });

  it("scoped instructions match paths relative to their own folder and apply to its files only; an Ask question carries the AGENTS.md of its file's folder", async () => {
    write("alpha/AGENTS.md", "Alpha rules: answer in French.\n");
    write("beta/AGENTS.md", "Beta rules: answer in Dutch.\n");
    write("beta/.github/instructions/src.instructions.md", "---\napplyTo: '/src/**'\n---\nBeta's sources use tabs.\n");
    await waitFor("the instructions read", () => suite.api.chat.customization().instructions, (i) => i.some((path) => path.endsWith("src.instructions.md")), watched);
    assert.deepEqual(suite.api.chat.customization().instructions, ["beta/.github/instructions/src.instructions.md"]);

    await askAbout("beta", "What does this do?");
    assert.match(system(), /\n\nProject rules from beta\/AGENTS\.md:\nBeta rules: answer in Dutch\./);
    assert.doesNotMatch(system(), /Alpha rules/);
    assert.match(system(), /\n\nInstructions for files matching \/src\/\*\* \(from beta\/\.github\/instructions\/src\.instructions\.md\):\nBeta's sources use tabs\.$/, "/src/** is beta's src");

    await askAbout("alpha", "And this?");
    assert.match(system(), /\n\nProject rules from alpha\/AGENTS\.md:\nAlpha rules: answer in French\./);
    assert.doesNotMatch(system(), /Beta rules|Beta's sources/, "alpha's src/index.ts is not beta's");
  });

  it("each folder's .vscode/mcp.json is read: a server name both use is notes and beta:notes, and beta's ${workspaceFolder} is beta", async () => {
    const config = JSON.stringify({ servers: { notes: { type: "stdio", command: "node", args: [notesServer()], env: { NOTES_FILE: "${workspaceFolder}/mcp-notes.txt" } } } });
    // Written last: once it is read, so is beta's.
    write("beta/.vscode/mcp.json", config);
    write("alpha/.vscode/mcp.json", config);
    const list = await waitFor("the files read", () => suite.api.mcp.list(), (servers) => servers.some((s) => s.entry.name === "notes"), watched);
    assert.deepEqual(list.map((s) => s.entry.name), ["notes", "beta:notes"]);

    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    suite.server.queue({ toolCalls: [{ name: "mcp_beta_notes_add_note", arguments: { text: "from beta" } }] }, { text: "Noted." });
    const task = suite.api.chat.fromView({ type: "send", text: "Note it in beta" });
    // Both servers ask before their first start, then the call asks: each allowed.
    for (;;) {
      const [card] = await waitFor("a card, or the end", () => [steps().find((s) => s.status === "asking"), answer()?.status !== undefined && answer()!.status !== "streaming" && !state().streaming] as const, ([c, done]) => c !== undefined || done);
      if (card === undefined) break;
      await suite.api.chat.fromView({ type: "agentApproval", stepId: card.id, answer: "allow" });
    }
    await task;
    assert.equal(read("beta/mcp-notes.txt"), "from beta\n", "beta's server writes in beta");
    assert.equal(read("alpha/mcp-notes.txt"), undefined);
  });

  it("a server allowed in one folder's .vscode/mcp.json is asked for again when another folder's file comes to define it under the same name and command: it runs that folder's scripts", async () => {
    const config = JSON.stringify({ servers: { tools: { type: "stdio", command: "node", args: [notesServer()], env: { NOTES_FILE: "${workspaceFolder}/mcp-notes.txt" } } } });
    const folderOf = (list: readonly { entry: { name: string; workspaceFolder?: string } }[]) => list.find((s) => s.entry.name === "tools")?.entry.workspaceFolder;
    for (const folder of ["alpha", "beta"]) {
      rmSync(abs(`${folder}/mcp-notes.txt`), { force: true });
      rmSync(abs(`${folder}/.vscode/mcp.json`), { force: true });
    }
    write("alpha/.vscode/mcp.json", config);
    await waitFor("alpha's file read, alone", () => suite.api.mcp.list(), (list) => list.length === 1 && folderOf(list) === abs("alpha"), watched);
    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    suite.server.queue({ toolCalls: [{ name: "mcp_tools_add_note", arguments: { text: "from alpha" } }] }, { text: "Noted." });
    const first = suite.api.chat.fromView({ type: "send", text: "Note it" });
    await approve(0, "allow");
    await approve(1, "allow");
    await first;
    await ended();
    assert.equal(read("alpha/mcp-notes.txt"), "from alpha\n");

    // A pull in beta brings a file with the same server; alpha's goes.
    rmSync(abs("alpha/.vscode/mcp.json"));
    write("beta/.vscode/mcp.json", config);
    await waitFor("beta's file read", () => suite.api.mcp.list(), (list) => folderOf(list) === abs("beta"), watched);
    await suite.api.chat.fromView({ type: "newChat" });
    suite.server.queue({ toolCalls: [{ name: "mcp_tools_add_note", arguments: { text: "from beta" } }] }, { text: "Not noted." });
    const second = suite.api.chat.fromView({ type: "send", text: "Note it again" });
    const card = await waitFor("a card", () => steps().find((s) => s.status === "asking"), (c) => c !== undefined);
    assert.equal(card!.tool, "mcp_start", `beta's server asks before it starts: ${JSON.stringify(card)}`);
    await suite.api.chat.fromView({ type: "agentApproval", stepId: card!.id, answer: "deny" });
    await second;
    await ended();
    assert.equal(read("beta/mcp-notes.txt"), undefined);
    assert.equal(read("alpha/mcp-notes.txt"), "from alpha\n", "nor does alpha's server, still running, take the call");
    // The next cases start with no workspace server waiting to be allowed.
    rmSync(abs("beta/.vscode/mcp.json"));
    await waitFor("beta's file gone", () => suite.api.mcp.list(), (list) => list.length === 0, watched);
  });

  it("a server of the user's wisp.mcp.servers names a folder with ${workspaceFolder:beta} and the home folder with ${userHome}, as VS Code expands them", async () => {
    const servers = { shared: { type: "stdio", command: "node", args: [notesServer()], env: { NOTES_FILE: "${workspaceFolder:beta}${/}user-notes.txt", NOTES_TOKEN: "${userHome}" } } };
    const settings = vscode.workspace.getConfiguration("wisp");
    await settings.update("mcp.servers", { servers }, vscode.ConfigurationTarget.Global);
    try {
      await waitFor("the setting read", () => suite.api.mcp.list(), (list) => list.some((s) => s.entry.name === "shared"), watched);
      await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
      suite.server.queue({ toolCalls: [{ name: "mcp_shared_add_note", arguments: { text: "from the user's server" } }] }, { text: "Noted." });
      const task = suite.api.chat.fromView({ type: "send", text: "Note it" });
      await approve(0, "allow");
      await task;
      await ended();
      assert.equal(read("beta/user-notes.txt"), "from the user's server\n", "${workspaceFolder:beta} is beta, ${/} its separator");
      assert.equal(read("alpha/user-notes.txt"), undefined);
      // The server says how long its token is: the home folder's path, not the variable as written.
      assert.match(String(toolResults(suite.server.chatRequests.at(-1)!).at(-1)), new RegExp(`token of ${homedir().length} characters`));
    } finally {
      await settings.update("mcp.servers", undefined, vscode.ConfigurationTarget.Global);
      rmSync(abs("beta/user-notes.txt"), { force: true });
    }
  });

  it("/init drafts the AGENTS.md of the editor's folder", async () => {
    rmSync(abs("beta/AGENTS.md"), { force: true });
    await vscode.window.showTextDocument(vscode.Uri.file(abs("beta/src/index.ts")));
    const sessions = () => suite.api.edit.sessions().filter((s) => s.uri.endsWith("/AGENTS.md"));
    await suite.api.chat.fromView({ type: "send", text: "/init" });
    const [session] = await waitFor("the draft under review", sessions, (s) => s.length === 1 && s[0]!.state === "reviewing");
    assert.ok(session!.uri.endsWith("/beta/AGENTS.md"), session!.uri);
    assert.match(state().notice?.text ?? "", /^Drafted beta\/AGENTS\.md from the workspace/);
    await vscode.commands.executeCommand("wisp.edit.reject");
    await waitFor("the review ended", sessions, (s) => s.length === 0);
    assert.equal(read("beta/AGENTS.md"), undefined);
  });

  it("Explain Terminal Failure runs the fix in the folder of the editor when the terminal did not say its folder", async () => {
    // A terminal whose shell reports its commands (VS Code's shell integration sequences) but not its folder.
    const output = new vscode.EventEmitter<string>();
    const prompt = "\x1b]633;A\x07$ \x1b]633;B\x07";
    const terminal = vscode.window.createTerminal({ name: "wisp-no-cwd", pty: { onDidWrite: output.event, open: () => output.fire(prompt), close: () => undefined } });
    try {
      terminal.show();
      await waitFor("shell integration", () => terminal.shellIntegration !== undefined, Boolean, 30_000);
      // The command as typed after the prompt, then its run, its output and its exit code.
      output.fire(`make build\r\n\x1b]633;E;make build\x07\x1b]633;C\x07make: *** No rule to make target 'build'.\r\n\x1b]633;D;2\x07${prompt}`);
      const failed = await waitFor("the failed command recorded", () => suite.api.terminal.latest(terminal), (c) => c?.exitCode === 2);
      assert.equal(failed!.cwd, undefined, "the terminal did not say where it ran");

      await vscode.window.showTextDocument(vscode.Uri.file(abs("beta/src/index.ts")));
      suite.server.queue({ toolCalls: [{ name: "run_in_terminal", arguments: { command: "pwd > ran-here.txt" } }] }, { text: "Ran." });
      await vscode.commands.executeCommand("wisp.explainTerminalFailure", terminal);
      await approve(0, "allow");
      await ended();
      assert.equal(read("beta/ran-here.txt")?.trim(), abs("beta"), "it ran in the editor's folder");
      assert.equal(read("alpha/ran-here.txt"), undefined);
    } finally {
      terminal.dispose();
      output.dispose();
    }
  });
});
