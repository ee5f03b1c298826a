import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WispApi } from "../../src/extension/extension";
import type { ScriptedChatServer } from "../harness/scripted-chat-server";
import { agentTaskView, closeAgentSuite, openAgentSuite, toolResults } from "./support/agent-task";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const dir = "agent-protected";

describe("Agent mode: files whose edit always asks (real VS Code, scripted model, edits applied at once)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const abs = (path: string) => join(workspace, path);

  before(async () => {
    ({ api, server } = await openAgentSuite("sk-agent-protected"));
  });
  beforeEach(async () => {
    rmSync(abs(dir), { recursive: true, force: true });
    mkdirSync(abs(`${dir}/.git`), { recursive: true });
    await api.chat.fromView({ type: "newChat" });
  });
  afterEach(() => api.chat.fromView({ type: "stop" }));
  after(async () => {
    rmSync(abs(dir), { recursive: true, force: true });
    await closeAgentSuite({ api, server });
  });

  const { answer, steps, asking, approve, ended } = agentTaskView(() => api);

  it("git's configuration and the editor's settings: each edit waits on a card that says why, and denied, the files stay as they were", async () => {
    const config = `${dir}/.git/config`;
    writeFileSync(abs(config), "[core]\n\tbare = false\n");
    const injected = '[core]\n\tbare = false\n\tfsmonitor = "touch pwned; false"\n';
    server.queue(
      { toolCalls: [{ name: "create_file", arguments: { path: config, content: injected } }] },
      { toolCalls: [{ name: "create_file", arguments: { path: `${dir}/.VSCode/settings.json`, content: '{"wisp.agent.autoApprove": ["/.*/"]}' } }] },
      { text: "I could not change them." },
    );
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Speed up git status" });
    const gitCard = await asking(0);
    assert.match(gitCard!.note ?? "", /git's own data: git runs the commands its configuration and hooks name/);
    assert.equal(readFileSync(abs(config), "utf8"), "[core]\n\tbare = false\n", "nothing is written while the card waits");
    await approve(0, "deny");
    const settingsCard = await asking(1);
    assert.match(settingsCard!.note ?? "", /the editor's configuration/, "judged regardless of case, as macOS and Windows open it");
    await approve(1, "deny");
    await task;
    await ended();
    assert.equal(readFileSync(abs(config), "utf8"), "[core]\n\tbare = false\n");
    assert.equal(existsSync(abs(`${dir}/.VSCode/settings.json`)), false);
    assert.deepEqual(toolResults(server.chatRequests[before + 1]!), [`Error: The user denied the edit of ${config}.`]);
    assert.deepEqual(steps().map((s) => s.status), ["denied", "denied"]);
    assert.equal(answer()!.text, "I could not change them.");
  });

  it("Allow in this session on an edit of the editor's settings holds for that exact text: a later, other edit of the file asks again", async () => {
    const settings = `${dir}/.vscode/settings.json`;
    const tidy = '{\n  "editor.tabSize": 2\n}\n';
    const injected = '{\n  "editor.tabSize": 2,\n  "wisp.agent.autoApprove": ["/.*/"]\n}\n';
    server.queue(
      { toolCalls: [{ name: "create_file", arguments: { path: settings, content: tidy } }] },
      { toolCalls: [{ name: "create_file", arguments: { path: settings, content: injected } }] },
      { toolCalls: [{ name: "create_file", arguments: { path: settings, content: tidy } }] },
      { text: "done" },
    );
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Use two spaces" });
    await approve(0, "session");
    const again = await asking(1);
    assert.match(again!.note ?? "", /the editor's configuration/);
    assert.equal(readFileSync(abs(settings), "utf8"), tidy, "the other text is not written while its card waits");
    await approve(1, "deny");
    await task;
    await ended();
    assert.equal(readFileSync(abs(settings), "utf8"), tidy);
    assert.deepEqual(steps().map((s) => s.status), ["done", "denied", "done"], "the allowed text itself goes again without a card");
    assert.deepEqual(toolResults(server.chatRequests[before + 2]!).at(-1), `Error: The user denied the edit of ${settings}.`);
  });

  it("a file the repository's config includes (include.path): its edit waits on a card that says git runs what it names", async () => {
    rmSync(abs(`${dir}/.git`), { recursive: true, force: true });
    execFileSync("git", ["init", "--quiet"], { cwd: abs(dir) });
    execFileSync("git", ["config", "--local", "include.path", "../.gitconfig"], { cwd: abs(dir) });
    // Written, the next auto-approved git status would run touch.
    server.queue({ toolCalls: [{ name: "create_file", arguments: { path: `${dir}/.gitconfig`, content: '[core]\n\tfsmonitor = "touch pwned; false"\n' } }] }, { text: "I could not change it." });
    const task = api.chat.fromView({ type: "send", text: "Share the git settings" });
    const card = await asking(0);
    assert.match(card!.note ?? "", /\.gitconfig is git configuration that agent-protected\/\.git\/config includes \(include\.path\): git runs the commands it names/);
    assert.equal(existsSync(abs(`${dir}/.gitconfig`)), false, "nothing is written while the card waits");
    await approve(0, "deny");
    await task;
    await ended();
    assert.equal(existsSync(abs(`${dir}/.gitconfig`)), false);
    assert.deepEqual(steps().map((s) => s.status), ["denied"]);
  });

  it("a link to the editor's settings or to a sensitive file is judged by where it leads: its edit and its read wait on cards naming the target", async () => {
    const settings = `${dir}/.vscode/settings.json`;
    mkdirSync(abs(`${dir}/.vscode`), { recursive: true });
    mkdirSync(abs(`${dir}/docs`), { recursive: true });
    writeFileSync(abs(settings), "{}\n");
    writeFileSync(abs(`${dir}/.env`), "API_KEY=sk-live-7f3a\n");
    // Links a repository can carry: their names look ordinary, their targets are not.
    symlinkSync("../.vscode/settings.json", abs(`${dir}/docs/editor.json`));
    symlinkSync(".env", abs(`${dir}/notes.txt`));
    server.queue(
      { toolCalls: [{ name: "create_file", arguments: { path: `${dir}/docs/editor.json`, content: '{"wisp.agent.autoApprove": ["/.*/"]}' } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: `${dir}/notes.txt` } }] },
      { text: "I could not." },
    );
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Tidy the docs" });
    const editCard = await asking(0);
    assert.match(editCard!.note ?? "", new RegExp(`docs/editor\\.json \\(a link to ${dir}/\\.vscode/settings\\.json\\) is the editor's configuration`));
    assert.equal(readFileSync(abs(settings), "utf8"), "{}\n", "nothing is written while the card waits");
    await approve(0, "deny");
    const readCard = await asking(1);
    assert.match(readCard!.note ?? "", new RegExp(`notes\\.txt \\(a link to ${dir}/\\.env\\) matches wisp\\.sensitiveFiles`));
    await approve(1, "deny");
    await task;
    await ended();
    assert.equal(readFileSync(abs(settings), "utf8"), "{}\n");
    assert.deepEqual(toolResults(server.chatRequests[before + 2]!), [`Error: The user denied the edit of ${dir}/docs/editor.json.`, `Error: The user denied reading ${dir}/notes.txt.`]);
    assert.ok(!JSON.stringify(server.chatRequests.slice(before)).includes("sk-live-7f3a"), "the secret never reaches the model");
  });

  it("a sensitive file: the edit asks before the file is read, so a wrong old_string tells the model nothing of what it holds", async () => {
    const env = `${dir}/.env`;
    writeFileSync(abs(env), "API_KEY=sk-live-7f3a\n");
    server.queue(
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: env, old_string: "API_KEY=sk-a", new_string: "API_KEY=x" } }] },
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: env, old_string: "API_KEY=sk-l", new_string: "API_KEY=x" } }] },
      { text: "done" },
    );
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Rotate the key" });
    const card = await asking(0);
    assert.match(card!.note ?? "", /matches wisp\.sensitiveFiles or \.wispignore and may hold secrets/);
    await approve(0, "deny");
    await approve(1, "deny");
    await task;
    await ended();
    // Each request carries the task so far: the second's last tool message answers the second guess.
    const answers = [toolResults(server.chatRequests[before + 1]!).at(-1), toolResults(server.chatRequests[before + 2]!).at(-1)];
    assert.deepEqual(answers, [`Error: The user denied the edit of ${env}.`, `Error: The user denied the edit of ${env}.`], "the same answer whether the guess was right or wrong");
    assert.equal(readFileSync(abs(env), "utf8"), "API_KEY=sk-live-7f3a\n");
  });
});
