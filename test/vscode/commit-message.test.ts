import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ChatMessage } from "../../src/core/api/chat";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { closeInGit, gitIn, openedByGit } from "./support/git-repository";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const repo = join(workspace, "scm-commit");
const secret = "sk_live_commit_9f3e1a";
const message = "fix: count quantities in the cart total\n\nEach line's price was added once, whatever its quantity.";
const longAnswer = `feat: ${Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ")}`;

type Outcome = { kind: string; message?: string; reason?: string };

describe("Generate Commit Message in the Source Control view's commit box (real VS Code, real git repository, scripted model)", function () {
  this.timeout(120_000);
  let server: ScriptedChatServer;
  const git = gitIn(repo);
  const file = (path: string) => vscode.Uri.file(join(repo, path));
  const root = vscode.Uri.file(repo);
  const write = (path: string, text: string) => writeFileSync(join(repo, path), text);
  const generate = (arg: unknown = root) => vscode.commands.executeCommand<Outcome>("wisp.generateCommitMessage", arg);
  const userText = (request: Record<string, unknown>) => (request.messages as ChatMessage[]).map((m) => m.content).join("\n");
  const box = async () => (await gitRepository()).inputBox;

  /** `path` committed on main, then changed one way on a new `branch` and another on main (the branch checked out): merging or rebasing them conflicts. */
  function divergedOn(path: string, branch: string): void {
    write(path, "export const side = 'base';\n");
    git("add", path);
    git("commit", "--quiet", "-m", `feat: add ${path}`, "--", path);
    git("checkout", "--quiet", "-b", branch);
    write(path, `export const side = '${branch}';\n`);
    git("commit", "--quiet", "-m", `feat: ${branch}'s side`, "--", path);
    git("checkout", "--quiet", "main");
    write(path, "export const side = 'main';\n");
    git("commit", "--quiet", "-m", "feat: main's side", "--", path);
  }

  async function gitRepository() {
    const api = (await vscode.extensions.getExtension<{ getAPI(v: 1): { getRepository(uri: vscode.Uri): { inputBox: { value: string } } | null } }>("vscode.git")!.activate()).getAPI(1);
    return api.getRepository(root)!;
  }

  before(async () => {
    await activateWisp();
    server = await startScriptedChatServer({ key: "sk-commit-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(join(repo, "src"), { recursive: true });
    write("src/cart.ts", "export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\n");
    write(".env", "STRIPE_KEY=placeholder\n");
    write("package-lock.json", '{\n  "lockfileVersion": 3\n}\n');
    write("notes.md", "# Notes\n");
    git("init", "--quiet", "--initial-branch=main");
    git("add", ".");
    git("commit", "--quiet", "-m", "feat: add the cart");
    write("notes.md", "# Notes\n\nTotals are in cents.\n");
    git("commit", "--quiet", "-am", "docs: say totals are in cents");
    await vscode.window.showTextDocument(file("src/cart.ts"));
    await openedByGit(file("src/cart.ts"));
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await closeInGit(repo, file("src/cart.ts")).catch(() => {});
    rmSync(repo, { recursive: true, force: true });
    await vscode.workspace.getConfiguration("wisp.commitMessage").update("instructions", undefined, vscode.ConfigurationTarget.Global);
    await resetWisp();
    await server?.close();
  });

  it("streams the message into the commit box from the staged diff and recent subjects, never a sensitive file's content", async () => {
    write("src/cart.ts", "export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, i) => sum + i.price * i.qty, 0);\n}\n");
    write(".env", `STRIPE_KEY=${secret}\n`);
    write("package-lock.json", '{\n  "lockfileVersion": 3,\n  "name": "cart"\n}\n');
    git("add", "src/cart.ts", ".env", "package-lock.json");
    write("notes.md", "# Notes\n\nUnstaged: not part of this commit.\n");
    await vscode.workspace.getConfiguration("wisp.commitMessage").update("instructions", "End the subject without a period.", vscode.ConfigurationTarget.Global);
    server.queue({ text: message, tokensPerSecond: 8 });
    const requests = server.chatRequests.length;

    const done = generate();
    // Seen while it streams: part of the message, growing.
    const partial = await waitFor("part of the message in the commit box", async () => (await box()).value, (v) => v !== "" && v !== message);
    assert.ok(message.startsWith(partial), partial);
    assert.deepEqual(await done, { kind: "written", message });
    await waitFor("the box to hold the message", async () => (await box()).value, (v) => v === message);

    assert.equal(server.chatRequests.length, requests + 1);
    const sent = userText(server.chatRequests.at(-1)!);
    assert.ok(sent.includes("+  return items.reduce((sum, i) => sum + i.price * i.qty, 0);"), "the staged change");
    assert.ok(sent.includes("- docs: say totals are in cents\n- feat: add the cart"), "the recent subjects, newest first");
    assert.ok(sent.includes("End the subject without a period."), "wisp.commitMessage.instructions");
    assert.ok(sent.includes("- .env (may hold secrets") && !sent.includes(secret) && !sent.includes("STRIPE_KEY"), "the .env by its path only");
    assert.ok(sent.includes("- package-lock.json (lockfile: content not sent)") && !sent.includes('"name": "cart"'), "the lockfile listed");
    assert.ok(!sent.includes("Unstaged: not part of this commit."), "unstaged changes stay out when something is staged");
  });

  it("a second click stops it mid-stream: the box keeps what arrived", async () => {
    server.queue({ text: longAnswer, tokensPerSecond: 6 });
    const aborted = server.aborted;
    const running = generate();
    await waitFor("the message streaming", async () => (await box()).value, (v) => v.startsWith("feat: word") && v.length > 15);
    assert.deepEqual(await generate(), { kind: "stopping" });
    const outcome = await running;
    assert.equal(outcome.kind, "stopped");
    assert.ok(outcome.message!.length > 10 && longAnswer.startsWith(outcome.message!) && outcome.message!.length < longAnswer.length, outcome.message);
    await waitFor("the box to keep it", async () => (await box()).value, (v) => v === outcome.message);
    await waitFor("the request closed", () => server.aborted, (n) => n === aborted + 1);
  });

  it("with nothing staged, all changes go (untracked files too)", async () => {
    git("reset", "--quiet");
    write("src/tax.ts", "export const rate = 0.2;\n");
    server.queue({ text: "feat: add the tax rate" });
    assert.deepEqual(await generate(), { kind: "written", message: "feat: add the tax rate" });
    const sent = userText(server.chatRequests.at(-1)!);
    assert.ok(sent.includes("The changes (nothing is staged: all of them)"));
    assert.ok(sent.includes("+Unstaged: not part of this commit."), "the working tree's change");
    assert.ok(sent.includes("+++ b/src/tax.ts\n@@ -0,0 +1,1 @@\n+export const rate = 0.2;"), "the untracked file");
    assert.ok(!sent.includes(secret), "the .env still by its path only");
  });

  it("with nothing staged and git.smartCommitChanges set to tracked, untracked files are left out, as VS Code's commit leaves them", async () => {
    const git = vscode.workspace.getConfiguration("git");
    await git.update("smartCommitChanges", "tracked", vscode.ConfigurationTarget.Global);
    try {
      server.queue({ text: "docs: note what is unstaged" });
      assert.deepEqual(await generate(), { kind: "written", message: "docs: note what is unstaged" });
      const sent = userText(server.chatRequests.at(-1)!);
      assert.ok(sent.includes("+Unstaged: not part of this commit."), "the tracked file's change");
      assert.ok(!sent.includes("src/tax.ts"), "the untracked file, which the commit would not take");
    } finally {
      await git.update("smartCommitChanges", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("what the user wrote in the box before asking goes with the request, and the answer takes its place", async () => {
    (await box()).value = "Fixes #42";
    server.queue({ text: "feat: add the tax rate\n\nFixes #42" });
    assert.deepEqual(await generate(), { kind: "written", message: "feat: add the tax rate\n\nFixes #42" });
    assert.ok(userText(server.chatRequests.at(-1)!).includes("What I had written in the commit box, to keep (its references, its wording where it fits) and complete into the message:\nFixes #42"));
    assert.equal((await box()).value, "feat: add the tax rate\n\nFixes #42");
    // Wisp's own message in the box is no draft: asking again writes a new one from the changes alone.
    server.queue({ text: "feat: add a tax rate" });
    await generate();
    assert.ok(!userText(server.chatRequests.at(-1)!).includes("What I had written"));
  });

  it("a commit template's comment lines under core.commentChar ';' (VS Code leaves them in the box, taking out only #) do not go as the user's draft", async () => {
    git("config", "core.commentChar", ";");
    try {
      // What VS Code puts in the box from commit.template: its # lines out, the ; lines kept.
      (await box()).value = "Refs #42\n\n; Why is this change needed?\n; Wrap the body at 72 characters.\n";
      server.queue({ text: "feat: add the tax rate\n\nRefs #42" });
      assert.deepEqual(await generate(), { kind: "written", message: "feat: add the tax rate\n\nRefs #42" });
      const sent = userText(server.chatRequests.at(-1)!);
      assert.ok(sent.includes("complete into the message:\nRefs #42"), "the user's reference");
      assert.ok(!sent.includes("Why is this change needed") && !sent.includes("Wrap the body"), "the template's comments");
    } finally {
      git("config", "--unset", "core.commentChar");
      (await box()).value = "";
    }
  });

  it("a body the model starts on the second line goes below a blank line: git's subject is the first line alone", async () => {
    server.queue({ text: "fix: count quantities\nEach line's price was added once." });
    const outcome = await generate();
    assert.deepEqual(outcome, { kind: "written", message: "fix: count quantities\n\nEach line's price was added once." });
    await waitFor("the box to hold it", async () => (await box()).value, (v) => v === outcome.message);
    (await box()).value = "";
  });

  it("a Stop before the first words, or an answer with no message, leaves what the user wrote in the box", async () => {
    const draft = "Fixes #42: totals round down";
    (await box()).value = draft;
    let end!: () => void;
    const requests = server.chatRequests.length;
    // The answer's stream opens (its first chunk has no text) and waits: nothing written yet.
    server.queue({ text: "", endAfter: new Promise((done) => (end = () => done(undefined))) });
    try {
      const running = generate();
      await waitFor("the request sent", () => server.chatRequests.length, (n) => n === requests + 1);
      assert.deepEqual(await generate(), { kind: "stopping" });
      assert.deepEqual(await running, { kind: "stopped", message: draft });
      assert.equal((await box()).value, draft);
    } finally {
      end();
    }
    // A reasoning model that spends its tokens thinking answers no text: said, and the box kept.
    server.queue({ text: "" });
    const empty = await generate();
    assert.equal(empty.kind, "error");
    assert.match(empty.reason!, /answered with no commit message; the commit box is left as it was/);
    assert.equal((await box()).value, draft);
    (await box()).value = "";
  });

  it("with git's diff.mnemonicPrefix (or diff.noprefix) set, the staged changes still go, sensitive files by path only", async () => {
    git("config", "diff.mnemonicPrefix", "true");
    try {
      git("add", "src/cart.ts", ".env");
      server.queue({ text: "fix: count quantities" });
      assert.deepEqual(await generate(), { kind: "written", message: "fix: count quantities" });
      const sent = userText(server.chatRequests.at(-1)!);
      assert.ok(sent.includes("+  return items.reduce((sum, i) => sum + i.price * i.qty, 0);"), sent);
      assert.ok(sent.includes("- .env (may hold secrets") && !sent.includes(secret), sent);
    } finally {
      git("config", "--unset", "diff.mnemonicPrefix");
      git("reset", "--quiet");
    }
  });

  it("merges' subjects (Merge branch 'x', Merge pull request #n) are left out of the recent subjects", async () => {
    for (const topic of ["cart-total", "tax", "rounding"]) {
      git("checkout", "--quiet", "-b", topic);
      git("commit", "--quiet", "--allow-empty", "-m", `fix: ${topic}`);
      git("checkout", "--quiet", "main");
      git("merge", "--quiet", "--no-ff", "-m", `Merge branch '${topic}'`, topic);
    }
    server.queue({ text: "fix: count quantities" });
    await generate();
    const sent = userText(server.chatRequests.at(-1)!);
    const listed = /newest first:\n((?:- .*\n)+)/.exec(sent)![1]!.trim().split("\n").sort();
    assert.deepEqual(listed, ["- docs: say totals are in cents", "- feat: add the cart", "- fix: cart-total", "- fix: rounding", "- fix: tax"]);
    assert.ok(!sent.includes("Merge branch"), sent);
    assert.ok(sent.includes("Start the subject with a Conventional Commits type as they do (fix:, docs:, feat:)"), sent);
    (await box()).value = "";
  });

  it("an untracked symbolic link goes as the path it points to, as git commits it: the file there is not read", async () => {
    const outside = join(workspace, "scm-outside.txt");
    writeFileSync(outside, "OUTSIDE_THE_REPOSITORY=only-on-this-machine\n");
    symlinkSync(outside, join(repo, "local-settings.txt"));
    try {
      server.queue({ text: "chore: link the local settings" });
      await generate();
      const sent = userText(server.chatRequests.at(-1)!);
      assert.ok(sent.includes(`+++ b/local-settings.txt\n@@ -0,0 +1,1 @@\n+${outside}`) && sent.includes("new file mode 120000"), sent);
      assert.ok(!sent.includes("OUTSIDE_THE_REPOSITORY"), "the linked file's content");
    } finally {
      rmSync(join(repo, "local-settings.txt"));
      rmSync(outside);
      (await box()).value = "";
    }
  });

  it("a merge stopped on its conflicts: the conflicted file is named and nothing is sent (its changes are not in the staged diff)", async () => {
    divergedOn("src/conflict.ts", "conflicting");
    assert.throws(() => git("merge", "--quiet", "conflicting"), "the merge stops on its conflict");
    const requests = server.chatRequests.length;
    try {
      const outcome = await generate();
      assert.equal(outcome.kind, "nothing", JSON.stringify(outcome));
      assert.equal(outcome.reason, "src/conflict.ts still has merge conflicts: resolve them and stage the file, then generate the message. Git commits nothing until then.");
      assert.equal(server.chatRequests.length, requests, "nothing sent");
    } finally {
      git("merge", "--abort");
    }
  });

  it("a rebase stopped at a commit: nothing is sent, since VS Code's commit continues the rebase and keeps that commit's message", async () => {
    divergedOn("src/rebase.ts", "topic");
    git("checkout", "--quiet", "topic");
    assert.throws(() => git("-c", "rebase.autoStash=true", "rebase", "main"), "the rebase stops on its conflict");
    // Resolved and staged: git would commit now, under the picked commit's own message.
    write("src/rebase.ts", "export const side = 'both';\n");
    git("add", "src/rebase.ts");
    const requests = server.chatRequests.length;
    try {
      const outcome = await generate();
      assert.equal(outcome.kind, "nothing", JSON.stringify(outcome));
      assert.match(outcome.reason!, /^A rebase is in progress: VS Code's commit continues it \(git rebase --continue\), which keeps the commit's own message/);
      assert.equal(server.chatRequests.length, requests, "nothing sent");
    } finally {
      git("rebase", "--abort");
      git("checkout", "--quiet", "main");
    }
  });

  it("no changes, and no repository: a clear message, nothing sent", async () => {
    git("add", "-A");
    git("commit", "--quiet", "-m", "feat: everything");
    const requests = server.chatRequests.length;
    const clean = await generate();
    assert.equal(clean.kind, "nothing");
    assert.match(clean.reason!, /There are no changes to commit in scm-commit\./);

    await closeInGit(repo, file("src/cart.ts"));
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const none = await generate(vscode.Uri.file(workspace));
    assert.equal(none.kind, "nothing");
    assert.match(none.reason!, /No git repository is open in this window/);
    assert.equal(server.chatRequests.length, requests, "nothing sent");
  });
});
