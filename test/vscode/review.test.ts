import * as assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ChatMessage, ChatTool } from "../../src/core/api/chat";
import type { AssistantTurn, UserTurn } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { closeInGit, gitIn, openedByGit } from "./support/git-repository";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const repo = join(workspace, "scm-review");
const path = "scm-review/src/cart.ts";
// CRLF and no final line break: Apply Fix and its undo must keep these exact bytes around the fix.
const committed = ["export function total(items) {", "  let sum = 0;", "  for (const item of items) {", "    sum += item.price * item.qty;", "  }", "  return sum;", "}", "", "export function count(items) {", "  return items.length;", "}"];
const changed = [...committed.slice(0, 3), "    sum += item.price;", '    if (sum > 1000) console.log("big order", sum);', ...committed.slice(4)];
const crlf = (lines: readonly string[]) => lines.join("\r\n");
const hostile = 'Logs every big order. <img src=x onerror="alert(1)"> [Run this](command:workbench.action.terminal.new) <script>alert(2)</script>';

const finding = (line: number, severity: string, comment: string, fix = "", file = path) => ({ file, line, end_line: line, severity, comment, fix });
const threeFindings = {
  findings: [
    finding(4, "error", "Quantities are ignored: each price is added once.", "    sum += item.price * item.qty;"),
    finding(5, "info", hostile),
    finding(10, "warning", "Outside the diff: count is unchanged."),
    { file: path, line: "five", severity: "warning", comment: "Does not fit the schema." },
  ],
};

type Outcome = { kind: string; summary?: string; threads?: number; via?: string; reason?: string };

describe("Review Changes and Review Selection as comment threads with Apply Fix (real VS Code, real git repository, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const git = gitIn(repo);
  const uri = vscode.Uri.file(join(repo, "src/cart.ts"));
  const onDisk = () => readFileSync(join(repo, "src/cart.ts"), "utf8");
  const review = () => vscode.commands.executeCommand<Outcome>("wisp.reviewChanges", vscode.Uri.file(repo));

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-review-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(join(repo, "src"), { recursive: true });
    writeFileSync(join(repo, "src/cart.ts"), crlf(committed));
    git("init", "--quiet", "--initial-branch=main");
    git("-c", "core.autocrlf=false", "add", ".");
    git("commit", "--quiet", "-m", "feat: cart");
    writeFileSync(join(repo, "src/cart.ts"), crlf(changed));
    await vscode.window.showTextDocument(uri);
    await openedByGit(uri);
  });
  after(async () => {
    await vscode.commands.executeCommand("wisp.clearReview");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await closeInGit(repo, uri).catch(() => {});
    rmSync(repo, { recursive: true, force: true });
    await vscode.workspace.getConfiguration("wisp.review").update("changes", undefined, vscode.ConfigurationTarget.Global);
    await api.chat.fromView({ type: "newChat" });
    await resetWisp();
    await server?.close();
  });

  it("three findings asked through response_format: two threads at their lines, the others dropped and counted, a list in the chat", async () => {
    server.queue({ text: JSON.stringify(threeFindings) });
    const outcome = await review();
    assert.deepEqual(outcome, { kind: "shown", summary: "2 findings shown; 2 dropped (1 outside the reviewed lines, 1 not fitting the schema).", threads: 2, via: "response_format" });

    const request = server.chatRequests.at(-1)!;
    assert.equal((request.response_format as { type: string }).type, "json_schema");
    const listing = (request.messages as ChatMessage[])[1]!.content;
    assert.ok(listing.includes(`File: ${path}\n    1   export function total(items) {`), listing);
    assert.ok(listing.includes("      -     sum += item.price * item.qty;\n    4 +     sum += item.price;"), listing);

    const threads = api.review.threads();
    assert.deepEqual(threads.map((t) => [t.uri, t.startLine, t.endLine, t.label, t.hasFix]), [
      [uri.toString(), 3, 3, "Wisp: Error", true],
      [uri.toString(), 4, 4, "Wisp: Note", false],
    ]);
    assert.match(threads[0]!.body, /Quantities are ignored[\s\S]*Proposed fix for line 4[\s\S]*```typescript\n {4}sum \+= item\.price \* item\.qty;\n```/);

    const [question, answer] = api.chat.state().chat.turns as [UserTurn, AssistantTurn];
    assert.equal(question.text, "Review the uncommitted changes of scm-review");
    assert.ok(answer.text.includes("- **error** [scm\\-review/src/cart\\.ts:4](scm-review/src/cart.ts#L4): Quantities are ignored: each price is added once\\. (fix proposed)"), answer.text);
    assert.ok(answer.text.includes("- **info** [scm\\-review/src/cart\\.ts:5](scm-review/src/cart.ts#L5)"), answer.text);
  });

  it("hostile markdown in a finding is inert: untrusted, no HTML, no command link", () => {
    const note = api.review.threads()[1]!;
    assert.equal(note.isTrusted, false);
    assert.equal(note.supportHtml, false);
    assert.ok(!note.body.includes("<img") && !note.body.includes("<script") && note.body.includes("&lt;img"), note.body);
    assert.ok(!/\]\(command:/.test(note.body) && note.body.includes("Run this"), note.body);
  });

  it("Apply Fix changes exactly those lines, byte for byte, and one undo puts them back", async () => {
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(3, 2, 3, 2);
    const applied = await vscode.commands.executeCommand<string>("wisp.review.applyFix");
    assert.equal(applied, `Applied the fix to lines 4-4 of ${path}.`);
    const fixed = [...changed.slice(0, 3), "    sum += item.price * item.qty;", ...changed.slice(4)];
    assert.equal(editor.document.getText(), crlf(fixed));
    assert.deepEqual(api.review.threads().map((t) => t.startLine), [4], "the applied finding's thread is gone");
    assert.equal(onDisk(), crlf(changed), "nothing saved behind the user's back");

    await vscode.commands.executeCommand("undo");
    assert.equal(editor.document.getText(), crlf(changed));
    assert.equal(editor.document.isDirty, false, "back to the saved text in one undo");
  });

  it("Discard removes the finding at the cursor and nothing else: the file stays as it is", async () => {
    const editor = await vscode.window.showTextDocument(uri);
    const text = editor.document.getText();
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand("wisp.review.discard");
    assert.ok(api.logLines().some((line) => line.includes("wisp.review.discard: There is no Wisp review comment here")), "the user is told why nothing happened");
    assert.deepEqual(api.review.threads().map((t) => t.startLine), [4], "a Discard away from a finding keeps it");
    editor.selection = new vscode.Selection(4, 3, 4, 3);
    await vscode.commands.executeCommand("wisp.review.discard");
    assert.deepEqual(api.review.threads(), []);
    assert.equal(editor.document.getText(), text);
    assert.equal(editor.document.isDirty, false);
  });

  it("an answer that is not JSON is an error and shows nothing", async () => {
    const before = api.review.threads();
    server.queue({ text: "The changes look fine to me!" });
    const outcome = await review();
    assert.equal(outcome.kind, "error");
    assert.match(outcome.reason!, /The model's review is not JSON, so no finding is shown \(it began: "The changes look fine to me!"\)/);
    assert.deepEqual(api.review.threads(), before);
  });

  it("Review Selection reviews the selected lines; Clear Review removes every thread", async () => {
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(9, 0, 11, 1);
    server.queue({ text: JSON.stringify({ findings: [finding(11, "warning", "count of null throws."), finding(4, "error", "Outside the selection.")] }) });
    const outcome = await vscode.commands.executeCommand<Outcome>("wisp.reviewSelection");
    assert.deepEqual(outcome, { kind: "shown", summary: "1 finding shown; 1 dropped (1 outside the reviewed lines).", threads: 1, via: "response_format" });
    const asked = (server.chatRequests.at(-1)!.messages as ChatMessage[])[1]!.content;
    assert.ok(asked.startsWith(`Review ${path} (lines 10-12):\n\nFile: ${path}\n   10   export function count(items) {\n   11     return items.length;\n   12   }\n`), asked);
    assert.deepEqual(api.review.threads().map((t) => t.startLine), [10]);
    await vscode.commands.executeCommand("wisp.clearReview");
    assert.deepEqual(api.review.threads(), []);
  });

  it("a server that refuses response_format is asked again with the schema as a tool call", async () => {
    server.queue(
      { error: { status: 400, message: "response_format of type json_schema is not supported", code: "unsupported_parameter" } },
      { toolCalls: [{ name: "report_findings", arguments: { findings: [finding(4, "warning", "Quantities are ignored.")] } }] },
    );
    const outcome = await review();
    assert.deepEqual(outcome, { kind: "shown", summary: "1 finding shown.", threads: 1, via: "tool" });
    const asked = server.chatRequests.at(-1)!;
    assert.equal(asked.response_format, undefined);
    assert.deepEqual((asked.tools as ChatTool[]).map((t) => t.function.name), ["report_findings"]);
    assert.deepEqual(asked.tool_choice, { type: "function", function: { name: "report_findings" } });
  });

  it("an untracked symbolic link is reviewed as the path it points to, as git commits it: the file there is not read", async () => {
    const outside = join(workspace, "review-outside.txt");
    writeFileSync(outside, "OUTSIDE_THE_REPOSITORY=only-on-this-machine\n");
    symlinkSync(outside, join(repo, "local-settings.txt"));
    try {
      server.queue({ text: JSON.stringify({ findings: [] }) });
      await review();
      const listing = (server.chatRequests.at(-1)!.messages as ChatMessage[])[1]!.content;
      assert.ok(listing.includes(`File: scm-review/local-settings.txt\n    1   ${outside}\n`), listing);
      assert.ok(!listing.includes("OUTSIDE_THE_REPOSITORY"), "the linked file's content");
    } finally {
      rmSync(join(repo, "local-settings.txt"));
      rmSync(outside);
    }
  });

  it("with wisp.review.changes set to staged, nothing staged is nothing to review: nothing sent", async () => {
    await vscode.workspace.getConfiguration("wisp.review").update("changes", "staged", vscode.ConfigurationTarget.Global);
    const requests = server.chatRequests.length;
    const outcome = await review();
    assert.equal(outcome.kind, "nothing");
    assert.match(outcome.reason!, /There are no staged changes to review in scm-review\./);
    assert.equal(server.chatRequests.length, requests);
  });

  it("secrets go masked, and Apply Fix never writes [masked] over one: a kept line gets its value back, a changed one is refused", async () => {
    const config = join(repo, "src/config.ts");
    const secret = ["export const config = {", '  apiKey: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",', '  password: "correct-horse-battery",', "  retries: 3,", "};"];
    writeFileSync(config, `${secret.join("\n")}\n`);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(config));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    server.queue({
      text: JSON.stringify({
        findings: [
          finding(2, "warning", "Read the key from the environment.", "  apiKey: process.env.API_KEY ?? [masked],", "scm-review/src/config.ts"),
          { ...finding(3, "info", "Retry more.", "  password: [masked],\n  retries: 5,", "scm-review/src/config.ts"), end_line: 4 },
        ],
      }),
    });
    const outcome = await vscode.commands.executeCommand<Outcome>("wisp.reviewSelection");
    assert.equal(outcome.kind, "shown");
    const asked = (server.chatRequests.at(-1)!.messages as ChatMessage[])[1]!.content;
    assert.ok(asked.includes("    2     apiKey: [masked],\n    3     password: [masked],\n    4     retries: 3,"), asked);
    assert.ok(!asked.includes("ghp_") && !asked.includes("correct-horse"), asked);

    const threads = api.review.threads();
    assert.deepEqual(threads.map((t) => [t.startLine, t.hasFix]), [[1, false], [2, true]]);
    assert.match(threads[0]!.body, /not applied by Wisp[\s\S]*This fix has \\\[masked\\\] where the file has a secret/);
    assert.match(threads[1]!.body, /Apply Fix keeps the file's own value there/);

    editor.selection = new vscode.Selection(1, 2, 1, 2);
    await vscode.commands.executeCommand("wisp.review.applyFix");
    assert.ok(api.logLines().some((line) => line.includes("wisp.review.applyFix: This fix has [masked] where the file has a secret")), "the user is told why");
    assert.equal(editor.document.getText(), `${secret.join("\n")}\n`);

    editor.selection = new vscode.Selection(2, 2, 2, 2);
    assert.equal(await vscode.commands.executeCommand<string>("wisp.review.applyFix"), "Applied the fix to lines 3-4 of scm-review/src/config.ts.");
    assert.equal(editor.document.getText(), `${[...secret.slice(0, 3), "  retries: 5,", "};"].join("\n")}\n`);
    await vscode.commands.executeCommand("undo");
  });

  it("a .env renamed (git mv .env app.env) is left out as the .env was, staged or not: what it holds is not sent", async () => {
    const unseal = "VAULT_UNSEAL=4471-9203-ab";
    writeFileSync(join(repo, ".env"), `${unseal}\n`);
    git("add", ".env");
    git("commit", "--quiet", "-m", "chore: env", "--", ".env");
    git("mv", ".env", "app.env");
    const settings = vscode.workspace.getConfiguration("wisp.review");
    try {
      for (const changes of ["staged", "uncommitted"]) {
        await settings.update("changes", changes, vscode.ConfigurationTarget.Global);
        server.queue({ text: JSON.stringify({ findings: [] }) });
        const requests = server.chatRequests.length;
        const outcome = await review();
        server.clearQueue();
        const sent = JSON.stringify(server.chatRequests.slice(requests));
        assert.ok(!sent.includes("4471-9203"), `${changes}: ${sent}`);
        if (changes === "staged") assert.deepEqual([outcome.kind, server.chatRequests.length], ["nothing", requests], JSON.stringify(outcome));
        else assert.ok(sent.includes("item.price"), "the other changes are still reviewed");
      }
    } finally {
      git("reset", "--quiet");
      rmSync(join(repo, "app.env"), { force: true });
      git("checkout", "--quiet", "--", ".env");
    }
  });
});

