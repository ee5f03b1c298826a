import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import type { UserTurn } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { closeInGit, gitIn, openedByGit } from "./support/git-repository";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const envSecret = "sk_live_wisp_4c1d9e7f";
const vaultSecret = "hunter2-wisp-vault";

// A workspace that is no git repository and has no .gitignore: only Wisp's own rules keep secrets in.
const files: Record<string, string> = {
  "billing/.env": `STRIPE_SECRET_KEY=${envSecret}\nSTRIPE_WEBHOOK_SECRET=${envSecret}-hook\n`,
  "billing/secrets.txt": `refund approval vault password: ${vaultSecret}\n`,
  "billing/charge.ts": "export function chargeKey(): string {\n  return process.env.STRIPE_SECRET_KEY ?? \"\";\n}\n\nexport function refundApproval(amount: number): boolean {\n  return amount < 100;\n}\n",
  ".wispignore": "secrets.txt\n",
};

describe("Sensitive files stay out of chat requests unless the user says Send (real VS Code, scripted server)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const uri = (path: string) => vscode.Uri.file(join(workspace, path));
  const pending = () => api.chat.state().chat.pending;
  const offered = async (query: string) => (await api.chat.mentions("file", query)).map((i) => i.detail);
  const noSecretSent = () => {
    const bodies = JSON.stringify(server.chatRequests);
    assert.ok(!bodies.includes(envSecret) && !bodies.includes(vaultSecret), "no request body carries a secret");
  };

  before(async () => {
    assert.ok(!existsSync(join(workspace, ".git")) && !existsSync(join(workspace, ".gitignore")), "the workspace is no git repository");
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-sensitive-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), text);
    }
    await waitFor("the new files indexed", () => offered("charge"), (paths) => paths.includes("billing/charge.ts"), 60_000);
    // .wispignore came with the files: once it applies, secrets.txt is known by its path alone (offered
    // to a query that names it, never to a fuzzy one).
    const applied = async () => api.chat.index().state === "ready" && (await offered("secrets")).includes("billing/secrets.txt") && !(await offered("ecrets")).includes("billing/secrets.txt");
    await waitFor("secrets.txt left out of the index by .wispignore", applied, Boolean, 60_000);
    await api.chat.fromView({ type: "newChat" });
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    for (const path of ["billing", "ledger-secrets", ".wispignore"]) rmSync(join(workspace, path), { recursive: true, force: true });
    await resetWisp();
    await server?.close();
  });

  /**
   * A repository in `repo` whose root .gitattributes keeps `secret` encrypted (git-crypt), with an
   * uncommitted change to it (the vault secret) and to `code` (rate = 2).
   */
  function encryptedChange(repo: string, secret: string, code: string): void {
    const git = gitIn(repo);
    const encrypted = (text: string) => Buffer.from(text).toString("base64");
    for (const path of [secret, code]) mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, ".gitattributes"), `${secret} filter=git-crypt diff=git-crypt\n`);
    writeFileSync(join(repo, secret), encrypted("approval: old\n"));
    writeFileSync(join(repo, code), "export const rate = 1;\n");
    git("init", "--quiet", "--initial-branch=main");
    // git-crypt's diff driver decrypts; base64 -d stands in for it.
    git("config", "diff.git-crypt.textconv", "base64 -d");
    git("add", ".");
    git("commit", "--quiet", "-m", "first");
    writeFileSync(join(repo, secret), encrypted(`approval: ${vaultSecret}\n`));
    writeFileSync(join(repo, code), "export const rate = 2;\n");
  }

  async function send(text: string): Promise<UserTurn> {
    server.queue({ text: "Noted." });
    await api.chat.fromView({ type: "send", text });
    return api.chat.state().chat.turns.filter((t): t is UserTurn => t.role === "user").at(-1)!;
  }

  it("a question whose words are in .env and secrets.txt finds the code, never the secrets", async () => {
    const question = "Where is STRIPE_SECRET_KEY read, and what is the refund approval vault password?";
    await api.chat.fromView({ type: "viewState", chatId: api.chat.state().chat.id, scrollTop: 0, draft: question });
    const found = await waitFor("snippets found for the question", async () => pending(), (p) => p.some((a) => a.source === "found"));
    assert.deepEqual(found.map((a) => a.path), ["billing/charge.ts"]);
    const turn = await send(question);
    assert.deepEqual(turn.attachments.map((a) => a.path), ["billing/charge.ts"]);
    noSecretSent();
  });

  it("the @ list offers a sensitive file only to a query that names it", async () => {
    for (const query of ["", "env", "STRIPE", "vault"]) {
      const listed = [...(await offered(query)), ...(await api.chat.mentions("", query)).map((i) => i.detail)];
      assert.ok(!listed.includes("billing/.env") && !listed.includes("billing/secrets.txt"), `@${query} offers no sensitive file: ${listed.join(", ")}`);
    }
    assert.ok((await offered(".env")).includes("billing/.env"));
  });

  it("an explicit @.env asks before sending (the test host refuses the dialog: nothing is attached or sent)", async () => {
    const [item] = (await api.chat.mentions("", ".env")).filter((i) => i.detail === "billing/.env");
    await assert.rejects(
      api.chat.fromView({ type: "addMention", id: item!.id }),
      (error: Error) => error.message.includes(`billing/.env matches wisp.sensitiveFiles/.wispignore and may contain secrets. Send it to ${new URL(server.baseUrl).host}?`),
    );
    assert.deepEqual(pending(), []);
    await send("What is in the env file?");
    noSecretSent();
  });

  it("@open and Ask About Selection on an open .env ask too; @problems leaves it out", async () => {
    const editor = await vscode.window.showTextDocument(uri("billing/.env"));
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    const kind = async (label: string) => (await api.chat.mentions("", label.slice(1))).find((i) => i.label === label)!.id;
    for (const label of ["@open", "@selection"]) await assert.rejects(api.chat.fromView({ type: "addMention", id: await kind(label) }), /billing\/\.env matches wisp\.sensitiveFiles/);
    await vscode.commands.executeCommand("wisp.askAboutSelection");
    assert.deepEqual(pending(), [], "nothing attached without a Send");
    // A diagnostic on the .env (as a dotenv linter would report, quoting the line) stays out of @problems.
    const diagnostics = vscode.languages.createDiagnosticCollection("dotenv-test");
    diagnostics.set(uri("billing/.env"), [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 5), `Duplicate key: STRIPE_SECRET_KEY=${envSecret}`)]);
    const problems = await api.chat.fromView({ type: "addMention", id: await kind("@problems") }).then(
      () => pending().map((a) => `${a.label}\n${a.text}`).join("\n"),
      (error: Error) => error.message,
    );
    diagnostics.dispose();
    assert.ok(!problems.includes("billing/.env") && !problems.includes(envSecret), problems);
    for (const a of pending()) await api.chat.fromView({ type: "removeAttachment", id: a.id });
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("@git leaves a changed .env out of the diff and says so", async () => {
    const repo = join(workspace, "ledger-secrets");
    mkdirSync(repo, { recursive: true });
    const git = gitIn(repo);
    writeFileSync(join(repo, ".env"), "TOKEN=old\n");
    writeFileSync(join(repo, "book.ts"), "export const rate = 1;\n");
    git("init", "--quiet", "--initial-branch=main");
    git("add", ".");
    git("commit", "--quiet", "-m", "first");
    writeFileSync(join(repo, ".env"), `TOKEN=${envSecret}\n`);
    writeFileSync(join(repo, "book.ts"), "export const rate = 2;\n");
    await vscode.window.showTextDocument(uri("ledger-secrets/book.ts"));
    await openedByGit(uri("ledger-secrets/book.ts"));
    const id = (await api.chat.mentions("", "git")).find((i) => i.label === "@git")!.id;
    await api.chat.fromView({ type: "addMention", id });
    const [attached] = pending();
    assert.ok(attached!.text.includes("+export const rate = 2;"), attached!.text);
    assert.ok(!attached!.text.includes("diff --git a/.env"), attached!.text);
    assert.ok(attached!.text.endsWith("(left out, matching wisp.sensitiveFiles/.wispignore: .env)"), attached!.text);
    await send("Review my changes.");
    noSecretSent();
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await closeInGit(repo, uri("ledger-secrets/book.ts"));
  });

  it("@git leaves out a file .gitattributes keeps encrypted (git-crypt), which git diff shows decrypted", async () => {
    const repo = join(workspace, "ledger-crypt");
    encryptedChange(repo, "config/prod.yaml", "book.ts");
    try {
      await vscode.window.showTextDocument(uri("ledger-crypt/book.ts"));
      await openedByGit(uri("ledger-crypt/book.ts"));
      const id = (await api.chat.mentions("", "git")).find((i) => i.label === "@git")!.id;
      await api.chat.fromView({ type: "addMention", id });
      const [attached] = pending();
      assert.ok(attached!.text.includes("+export const rate = 2;"), attached!.text);
      assert.ok(!attached!.text.includes(vaultSecret), attached!.text);
      assert.ok(attached!.text.endsWith("(left out, matching wisp.sensitiveFiles/.wispignore: config/prod.yaml)"), attached!.text);
      await send("Review my changes.");
      noSecretSent();
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      await closeInGit(repo, uri("ledger-crypt/book.ts"));
      rmSync(repo, { recursive: true, force: true });
    }
  });

  // A repository opened from a parent folder of the workspace folder (or with Open Repository) holds files outside it; its root's .gitattributes is above the folder.
  it("@git leaves out a file its repository's root .gitattributes keeps encrypted, the repository and the file outside the workspace folder", async () => {
    const repo = mkdtempSync(join(tmpdir(), "wisp-parent-repo-"));
    encryptedChange(repo, "infra/prod.yaml", "app/book.ts");
    const book = vscode.Uri.file(join(repo, "app/book.ts"));
    try {
      await vscode.commands.executeCommand("git.openRepository", repo);
      await openedByGit(book);
      await vscode.window.showTextDocument(book);
      const id = (await api.chat.mentions("", "git")).find((i) => i.label === "@git")!.id;
      await api.chat.fromView({ type: "addMention", id });
      const [attached] = pending();
      assert.ok(attached!.text.includes("+export const rate = 2;"), attached!.text);
      assert.ok(!attached!.text.includes(vaultSecret), attached!.text);
      assert.ok(attached!.text.endsWith("(left out, matching wisp.sensitiveFiles/.wispignore: infra/prod.yaml)"), attached!.text);
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      for (const a of pending()) await api.chat.fromView({ type: "removeAttachment", id: a.id });
      await closeInGit(repo, book);
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
