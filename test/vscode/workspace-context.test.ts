import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import type { CodeAttachment, UserTurn } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { gitIn, openedByGit } from "./support/git-repository";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";

const pricing = [
  "/** Prices are kept in cents; rounding happens once. */",
  "export function roundPrice(amount: number): number {",
  "  return Math.round(amount * 100) / 100;",
  "}",
  "",
  "export function applyDiscount(amount: number, percent: number): number {",
  "  if (percent < 0 || percent > 100) throw new RangeError(`discount out of range: ${percent}`);",
  "  return roundPrice(amount * (1 - percent / 100));",
  "}",
  "",
].join("\n");
const checkout = ["import { applyDiscount } from \"./pricing\";", "", "export function checkoutTotal(subtotal: number): number {", "  return applyDiscount(subtotal, 150);", "}", ""].join("\n");
const broken = ["export function label(count: number): string {", "  const size: number = `${count} items`;", "  return String(size);", "}", ""].join("\n");
// The same names in places the index must leave out: a git-ignored folder and a files.exclude'd one.
const vendored = "export function applyDiscount(amount: number, percent: number): number { return amount - percent; /* vendored copy */ }\n";

const files: Record<string, string> = {
  "shop/src/pricing.ts": pricing,
  "shop/src/checkout.ts": checkout,
  "shop/src/broken.ts": broken,
  "shop/vendor/discount.ts": vendored,
  "shop/generated/discount.ts": vendored,
  "shop/.gitignore": "vendor/\n",
};

describe("Chat with workspace context: @-mentions and found snippets (real VS Code, scripted server)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const uri = (path: string) => vscode.Uri.file(join(workspace, path));

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-context-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    const searches = api.chat.index().searches;
    await vscode.workspace.getConfiguration("files").update("exclude", { "**/generated": true }, vscode.ConfigurationTarget.Workspace);
    // The change builds the index again, and that build counts its search only once the folder's
    // .gitignore rules are read, which in a workspace the suites before have filled can be after
    // this hook: the tests that count searches must start after it.
    await waitFor("the build files.exclude starts", () => api.chat.index(), (s) => s.searches > searches && s.state === "ready", 60_000);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), text);
    }
    // The index follows files as they appear; wait until it offers the new ones.
    await waitFor("the new files indexed", () => api.chat.mentions("file", "checkout"), (items) => items.some((i) => i.detail === "shop/src/checkout.ts"), 60_000);
    await api.chat.fromView({ type: "newChat" });
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.workspace.getConfiguration("files").update("exclude", undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.chat").update("workspaceContext", undefined, vscode.ConfigurationTarget.Global);
    for (const folder of ["shop", "ledger", "books", "rebuilt", "pkg", "many"]) rmSync(join(workspace, folder), { recursive: true, force: true });
    await resetWisp();
    await server?.close();
  });

  const pending = () => api.chat.state().chat.pending;
  /** Whether @file offers the file at this workspace-relative path when its name is typed. */
  const offered = async (path: string) => (await api.chat.mentions("file", path.split("/").pop()!)).some((i) => i.detail === path);
  const lastRequestText = () => {
    const messages = server.chatRequests.at(-1)!.messages as { role: string; content: string }[];
    return messages.at(-1)!.content;
  };

  /** Sends a message as the prompt box does and waits for the scripted answer. */
  async function send(text: string, answer = "Noted."): Promise<UserTurn> {
    server.queue({ text: answer });
    const before = server.chatRequests.length;
    await api.chat.fromView({ type: "send", text });
    assert.equal(server.chatRequests.length, before + 1, "one request went out");
    return api.chat.state().chat.turns.filter((t): t is UserTurn => t.role === "user").at(-1)!;
  }

  async function mention(kind: "file" | "symbol" | "", query: string, pick: (item: { label: string; detail?: string }) => boolean): Promise<CodeAttachment[]> {
    const items = await waitFor(`@${kind}:${query}`, () => api.chat.mentions(kind, query), (list) => list.some(pick), 60_000);
    await api.chat.fromView({ type: "addMention", id: items.find(pick)!.id });
    return [...pending()];
  }

  it("@file attaches the whole file with its path and lines, and the request carries it as fenced code", async () => {
    const [attached] = await mention("file", "pricin", (i) => i.detail === "shop/src/pricing.ts");
    assert.deepEqual({ ...attached, id: "" }, { id: "", path: "shop/src/pricing.ts", language: "typescript", startLine: 1, endLine: 9, text: pricing.trimEnd(), source: "file" });
    const turn = await send("What does this file do?");
    assert.deepEqual(turn.attachments.map((a) => a.path), ["shop/src/pricing.ts"]);
    assert.equal(lastRequestText(), `What does this file do?\n\nshop/src/pricing.ts, lines 1-9 (typescript):\n\`\`\`typescript\n${pricing}\`\`\``);
  });

  it("an item picked from a list that newer typing has already replaced still attaches what it named", async () => {
    // Typing outruns the host: the list on screen is an older query's when Enter picks from it.
    const shown = await waitFor("@file:pric", () => api.chat.mentions("file", "pric"), (list) => list.some((i) => i.detail === "shop/src/pricing.ts"));
    await api.chat.mentions("file", "pricing.t");
    await api.chat.mentions("file", "checkout");
    await api.chat.fromView({ type: "addMention", id: shown.find((i) => i.detail === "shop/src/pricing.ts")!.id });
    assert.deepEqual(pending().map((a) => [a.path, a.source]), [["shop/src/pricing.ts", "file"]]);
    for (const a of pending()) await api.chat.fromView({ type: "removeAttachment", id: a.id });
  });

  it("a new folder's files are offered, and stay offered when the folder itself changes, with no workspace search", async () => {
    const searches = api.chat.index().searches;
    // Written at once after the folder: the watcher may report only the new folder.
    mkdirSync(join(workspace, "books/generated"), { recursive: true });
    writeFileSync(join(workspace, "books/generated/ledger.ts"), "export const ledger: string[] = [];\n");
    writeFileSync(join(workspace, "books/accounts.ts"), "export const accounts: string[] = [];\n");
    await waitFor("accounts.ts indexed", () => offered("books/accounts.ts"), (yes) => yes, 60_000);
    assert.equal(await offered("books/generated/ledger.ts"), false, "files.exclude keeps books/generated out");
    // The folder changes (its times, as a tool that touches it would): an event for the folder itself.
    const now = new Date();
    utimesSync(join(workspace, "books"), now, now);
    writeFileSync(join(workspace, "books/journal.ts"), "export const journal: string[] = [];\n");
    await waitFor("journal.ts indexed", () => offered("books/journal.ts"), (yes) => yes, 60_000);
    assert.equal(await offered("books/accounts.ts"), true, "accounts.ts is still in the index");
    // The folder's files are listed from the disk, judged by path as a new file is.
    assert.equal(api.chat.index().searches, searches, "the index asked the search service nothing");
  });

  it("a file changed on disk is found by its new text, and a changed excluded file stays out", async () => {
    // accounts.ts is in the index (the test before): its change is read again.
    writeFileSync(join(workspace, "books/accounts.ts"), "export function reconcileLedger(entries: number[]): number {\n  return entries.reduce((sum, entry) => sum + entry, 0);\n}\n");
    writeFileSync(join(workspace, "shop/generated/discount.ts"), "export function reconcileLedger(): void { /* generated copy */ }\n");
    const chatId = api.chat.state().chat.id;
    const draft = "How does reconcileLedger add up the entries?";
    // The draft is searched as it is typed: typed again (a space more each time) until the index has the change.
    let typed = draft;
    const found = await waitFor("the changed file found", async () => {
      typed += " ";
      await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft: typed });
      return pending();
    }, (p) => p.some((a) => a.path === "books/accounts.ts"), 60_000);
    assert.ok(!found.some((a) => a.path.includes("generated")), "files.exclude still keeps generated/ out");
    for (const a of found) await api.chat.fromView({ type: "removeAttachment", id: a.id });
    await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft: "" });
    writeFileSync(join(workspace, "shop/generated/discount.ts"), vendored);
  });

  it("a new file is judged by its path as the full scan judges it: found by its text, excluded and ignored ones left out, with no workspace search", async () => {
    const searches = api.chat.index().searches;
    // The same new name in a files.exclude'd folder, a git-ignored one and a sensitive file, written
    // first; the one to find goes to books/, a folder whose new files the tests before saw reported.
    const written = ["shop/generated/refunds.ts", "shop/vendor/refunds.ts", "books/refund-credentials.ts", "books/refunds.ts"];
    writeFileSync(join(workspace, written[0]!), "export function settleRefundBatch(): void { /* generated copy */ }\n");
    writeFileSync(join(workspace, written[1]!), "export function settleRefundBatch(): void { /* vendored copy */ }\n");
    writeFileSync(join(workspace, written[2]!), "export const settleRefundBatch = \"secret\";\n");
    writeFileSync(join(workspace, written[3]!), "export function settleRefundBatch(refunds: number[]): number {\n  return refunds.reduce((sum, refund) => sum + refund, 0);\n}\n");
    const chatId = api.chat.state().chat.id;
    let typed = "How does settleRefundBatch add up the refunds?";
    const found = await waitFor("the new file found", async () => {
      typed += " ";
      await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft: typed });
      return pending();
    }, (p) => p.some((a) => a.path === "books/refunds.ts"), 60_000);
    assert.deepEqual(found.filter((a) => a.path !== "books/refunds.ts" && a.text.includes("settleRefundBatch")).map((a) => a.path), [], "nothing else with the name is found");
    assert.equal(api.chat.index().searches, searches, "the index asked the search service nothing");
    for (const a of found) await api.chat.fromView({ type: "removeAttachment", id: a.id });
    await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft: "" });
    for (const path of written) rmSync(join(workspace, path));
  });

  it("a folder removed and made again at once, round after round: what is on disk is offered, what went is not", async () => {
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      // As a build does it: the folder's files go and come back in a few ms, one of them new.
      rmSync(join(workspace, "rebuilt"), { recursive: true, force: true });
      mkdirSync(join(workspace, "rebuilt"));
      writeFileSync(join(workspace, "rebuilt/kept.ts"), `export const kept = ${round};\n`);
      writeFileSync(join(workspace, `rebuilt/round${round}.ts`), `export const round = ${round};\n`);
      await waitFor(
        `round ${round}: kept.ts and round${round}.ts offered, round${round - 1}.ts not`,
        async () => [await offered("rebuilt/kept.ts"), await offered(`rebuilt/round${round}.ts`), round > 0 && (await offered(`rebuilt/round${round - 1}.ts`))],
        (seen) => seen[0] === true && seen[1] === true && seen[2] === false,
        20_000,
      );
    }
  });

  it("a folder with a .gitignore of its own, removed and made again without it: its events raise no error, and what the .gitignore left out is offered again", async () => {
    mkdirSync(join(workspace, "pkg/out"), { recursive: true });
    writeFileSync(join(workspace, "pkg/out/bundle.ts"), "export const bundle = 1;\n");
    await waitFor("pkg/out/bundle.ts offered", () => offered("pkg/out/bundle.ts"), Boolean, 60_000);
    writeFileSync(join(workspace, "pkg/.gitignore"), "out/\n");
    await waitFor("pkg/.gitignore to leave it out", () => offered("pkg/out/bundle.ts"), (yes) => !yes, 60_000);
    // As a checkout of another branch, or a clean build, does it: the folder goes and comes back without its .gitignore.
    rmSync(join(workspace, "pkg"), { recursive: true, force: true });
    mkdirSync(join(workspace, "pkg/out"), { recursive: true });
    writeFileSync(join(workspace, "pkg/out/bundle.ts"), "export const bundle = 2;\n");
    writeFileSync(join(workspace, "pkg/main.ts"), "export const main = 2;\n");
    await waitFor("pkg/out/bundle.ts offered", async () => [await offered("pkg/main.ts"), await offered("pkg/out/bundle.ts")], (seen) => seen[0] === true && seen[1] === true, 30_000);
  });

  it("while the index is built again (files.exclude changed), it keeps offering what it holds; a build after a rule change reads only what changed", async () => {
    const exclude = (patterns: string[]) => vscode.workspace.getConfiguration("files").update("exclude", Object.fromEntries(patterns.map((p) => [p, true])), vscode.ConfigurationTarget.Workspace);
    /** Changes files.exclude and samples the index until the build it starts is done. */
    const rebuilt = async (patterns: string[]) => {
      const searches = api.chat.index().searches;
      await exclude(patterns);
      const seen: { state: string; files: number; offered: boolean }[] = [];
      await waitFor("the build done", async () => {
        const { state, files, searches: now } = api.chat.index();
        seen.push({ state, files, offered: (await api.chat.mentions("file", "pricing")).some((i) => i.detail === "shop/src/pricing.ts") });
        return state === "ready" && now > searches;
      }, Boolean, 60_000);
      return seen.filter((s) => s.state === "indexing");
    };
    // Many files, excluded at first: letting them in makes a build that takes a while to read them all.
    await rebuilt(["**/generated", "**/many"]);
    mkdirSync(join(workspace, "many"));
    for (let i = 0; i < 1500; i++) writeFileSync(join(workspace, `many/part${i}.ts`), `export const part${i} = ${i};\n`);
    const held = api.chat.index();
    const during = await rebuilt(["**/generated"]);
    assert.ok(during.length > 0, "the build was seen under way");
    assert.deepEqual(during.filter((s) => s.files < held.files || !s.offered), [], "every look during the build found the files held before it");
    const all = await waitFor("the many files indexed", async () => api.chat.index(), (s) => s.state === "ready" && s.files >= 1500, 60_000);
    // No file changed since: the next build takes each in by its time on disk, without reading it again.
    await rebuilt(["**/generated", "**/*.log"]);
    const reads = api.chat.index().reads - all.reads;
    assert.ok(reads < all.files / 20, `${reads} of ${all.files} files read again`);
    assert.equal(api.chat.index().files, all.files);
    rmSync(join(workspace, "many"), { recursive: true, force: true });
    await exclude(["**/generated"]);
    await waitFor("the many files forgotten", async () => api.chat.index(), (s) => s.state === "ready" && s.files < 100, 60_000);
  });

  it("@file refuses a file too large to send, with a message, and attaches nothing", async () => {
    const big = `// generated\n${"export const row = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];\n".repeat(6000)}`;
    writeFileSync(join(workspace, "shop/big.ts"), big);
    await vscode.window.showTextDocument(uri("shop/big.ts"));
    const items = await waitFor("@file:big", () => api.chat.mentions("file", "big"), (list) => list.some((i) => i.detail === "shop/big.ts"));
    await assert.rejects(api.chat.fromView({ type: "addMention", id: items.find((i) => i.detail === "shop/big.ts")!.id }), /shop\/big\.ts is larger than 256 KB: not attached/);
    assert.deepEqual(pending(), []);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("@symbol attaches exactly the lines of the function's declaration", async () => {
    await vscode.window.showTextDocument(uri("shop/src/pricing.ts"));
    const [attached] = await mention("symbol", "applyDiscount", (i) => i.label.startsWith("applyDiscount") && (i.detail ?? "").includes("shop/src/pricing.ts"));
    assert.equal(attached!.source, "symbol");
    assert.equal(attached!.path, "shop/src/pricing.ts");
    assert.deepEqual([attached!.startLine, attached!.endLine], [6, 9]);
    assert.equal(attached!.text, pricing.split("\n").slice(5, 9).join("\n"));
    await send("Explain the range check.");
    assert.match(lastRequestText(), /shop\/src\/pricing\.ts, lines 6-9 \(typescript\):\n```typescript\nexport function applyDiscount/);
  });

  it("@problems carries the diagnostic the language server reports for the active file", async () => {
    await vscode.window.showTextDocument(uri("shop/src/broken.ts"));
    const [diagnostic] = await waitFor("the type error", () => vscode.languages.getDiagnostics(uri("shop/src/broken.ts")), (d) => d.length > 0, 90_000);
    const [attached] = await mention("", "prob", (i) => i.label === "@problems");
    assert.equal(attached!.label, "Problems in shop/src/broken.ts (1)");
    assert.ok(attached!.text.startsWith(`shop/src/broken.ts:2:9 error: ${diagnostic!.message}`), attached!.text);
    await send("Fix it.");
    assert.ok(lastRequestText().includes(`shop/src/broken.ts:2:9 error: ${diagnostic!.message}`));
  });

  it("Find Problems sends the diagnostics on the selected lines with the selection", async () => {
    const editor = await vscode.window.showTextDocument(uri("shop/src/broken.ts"));
    const [diagnostic] = await waitFor("the type error", () => vscode.languages.getDiagnostics(uri("shop/src/broken.ts")), (d) => d.length > 0, 90_000);
    editor.selection = new vscode.Selection(0, 0, 3, 1);
    server.queue({ text: "The string is not a number." });
    await vscode.commands.executeCommand("wisp.chat.findProblems");
    const turn = api.chat.state().chat.turns.filter((t): t is UserTurn => t.role === "user").at(-1)!;
    assert.deepEqual(turn.attachments.map((a) => [a.source, a.path, a.startLine, a.endLine]), [["selection", "shop/src/broken.ts", 1, 4], ["problems", "shop/src/broken.ts", 1, 1]]);
    assert.equal(turn.attachments[1]!.label, "Problems on shop/src/broken.ts, lines 1-4 (1)");
    assert.ok(lastRequestText().includes(`shop/src/broken.ts:2:9 error: ${diagnostic!.message}`));
  });

  it("a question naming a function of another file brings that function without a mention; ignored and excluded folders never appear", async () => {
    await vscode.window.showTextDocument(uri("shop/src/checkout.ts"));
    const draft = "Why does applyDiscount throw here?";
    await api.chat.fromView({ type: "viewState", chatId: api.chat.state().chat.id, scrollTop: 0, draft });
    const found = await waitFor("snippets found for the draft", async () => pending(), (p) => p.some((a) => a.source === "found"));
    assert.deepEqual(found.map((a) => [a.path, a.startLine, a.source]), [["shop/src/pricing.ts", 1, "found"]]);
    const turn = await send(draft);
    assert.deepEqual(turn.attachments.map((a) => a.path), ["shop/src/pricing.ts"]);
    const text = lastRequestText();
    assert.ok(text.includes("if (percent < 0 || percent > 100) throw new RangeError"), "the function that throws went with the question");
    assert.ok(!text.includes("vendored copy"), "nothing from vendor/ (.gitignore) or generated/ (files.exclude)");
    for (const query of ["vendor/discount", "generated/discount"]) {
      const offered = await api.chat.mentions("file", query);
      assert.ok(!offered.some((i) => (i.detail ?? "").includes(query)), `@file does not offer ${query}`);
    }
  });

  it("a found snippet removed from the message stays out of the request", async () => {
    const draft = "Where is roundPrice used?";
    const chatId = api.chat.state().chat.id;
    await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft });
    const found = await waitFor("snippets found", async () => pending(), (p) => p.some((a) => a.source === "found"));
    for (const a of found) await api.chat.fromView({ type: "removeAttachment", id: a.id });
    // Typing on does not bring them back.
    await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft: `${draft} ` });
    assert.deepEqual(pending(), []);
    const turn = await send(`${draft} `);
    assert.deepEqual(turn.attachments, []);
    assert.equal(lastRequestText(), draft);
  });

  it("a code block naming a workspace file: Open opens it, Apply opens the change to that file for review", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await api.chat.fromView({ type: "openFile", path: "shop/src/checkout.ts" });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uri("shop/src/checkout.ts").fsPath);
    await api.chat.fromView({ type: "openFile", path: "../outside.ts" });
    assert.equal(api.chat.state().notice?.text, "../outside.ts is not a file of this workspace.");
    const rounded = ["export function roundPrice(amount: number): number {", "  return Number(amount.toFixed(2));", "}"];
    await api.chat.fromView({ type: "codeAction", action: "apply", code: `${rounded.join("\n")}\n`, language: "typescript", path: "shop/src/pricing.ts" });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uri("shop/src/pricing.ts").fsPath, "Apply opened the file the block names");
    const [session] = api.edit.sessions();
    assert.equal(session?.state, "reviewing");
    assert.equal(session?.startLine, 1, "on the function the code starts and ends like");
    await vscode.commands.executeCommand("wisp.edit.accept");
    const document = vscode.window.activeTextEditor!.document;
    assert.equal(document.getText(), pricing.replace("  return Math.round(amount * 100) / 100;", "  return Number(amount.toFixed(2));"));
    await vscode.commands.executeCommand("undo");
    assert.equal(document.getText(), pricing);
    await document.save();
  });

  it("@open in a diff attaches the file's side, not the older version shown beside it", async () => {
    const older = pricing.replace(/\d+/, "999");
    const registration = vscode.workspace.registerTextDocumentContentProvider("wisp-test-older", { provideTextDocumentContent: () => older });
    const file = uri("shop/src/pricing.ts");
    try {
      await vscode.commands.executeCommand("vscode.diff", file.with({ scheme: "wisp-test-older" }), file, "pricing.ts (older) ↔ pricing.ts");
      await waitFor("both sides of the diff shown", () => vscode.window.visibleTextEditors.map((e) => e.document.uri.scheme), (schemes) => schemes.includes("wisp-test-older") && schemes.includes("file"));
      const attached = await mention("", "open", (i) => i.label === "@open");
      assert.deepEqual(attached.map((a) => [a.path, a.source]), [["shop/src/pricing.ts", "open"]]);
      assert.ok(!attached.some((a) => a.text.includes("999")), "the older side's text is not attached");
    } finally {
      for (const a of pending()) await api.chat.fromView({ type: "removeAttachment", id: a.id });
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      registration.dispose();
    }
  });

  it("@open attaches a file of a writable file system another extension provides (SSH FS, Live Share)", async () => {
    const files = new Map<string, Uint8Array>([["/remote.ts", new TextEncoder().encode("export const remoteRate = 0.25;\n")]]);
    const read = (target: vscode.Uri) => {
      const content = files.get(target.path);
      if (content === undefined) throw vscode.FileSystemError.FileNotFound(target);
      return content;
    };
    const changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
    const provider: vscode.FileSystemProvider = {
      onDidChangeFile: changed.event,
      watch: () => new vscode.Disposable(() => undefined),
      stat: (target) => ({ type: vscode.FileType.File, ctime: 0, mtime: 0, size: read(target).length }),
      readDirectory: () => [],
      createDirectory: () => undefined,
      readFile: read,
      writeFile: (target, content) => void files.set(target.path, content),
      delete: () => undefined,
      rename: () => undefined,
    };
    const registration = vscode.workspace.registerFileSystemProvider("wisp-test-sshfs", provider, { isCaseSensitive: true });
    try {
      await vscode.window.showTextDocument(vscode.Uri.from({ scheme: "wisp-test-sshfs", path: "/remote.ts" }));
      const attached = await mention("", "open", (i) => i.label === "@open");
      assert.ok(attached.some((a) => a.text.includes("remoteRate = 0.25")), `attached: ${JSON.stringify(attached.map((a) => a.path))}`);
    } finally {
      for (const a of pending()) await api.chat.fromView({ type: "removeAttachment", id: a.id });
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      registration.dispose();
      changed.dispose();
    }
  });

  it("@git attaches the uncommitted changes, staged and not, of the active file's repository as a diff; it says so when there is no repository or no change", async () => {
    const addGit = async () => {
      const items = await api.chat.mentions("", "git");
      await api.chat.fromView({ type: "addMention", id: items.find((i) => i.label === "@git")!.id });
    };
    await assert.rejects(addGit(), /@git: this workspace is not in a git repository\./);
    // A repository of its own in the workspace: one commit, then a change staged and one not.
    const repo = join(workspace, "ledger");
    mkdirSync(repo, { recursive: true });
    const git = gitIn(repo);
    const book = ["export function balance(entries: number[]): number {", "  return entries.reduce((a, b) => a + b, 0);", "}", ""].join("\n");
    writeFileSync(join(repo, "book.ts"), book);
    writeFileSync(join(repo, "notes.md"), "# Ledger\n");
    git("init", "--quiet", "--initial-branch=main");
    git("add", ".");
    git("commit", "--quiet", "-m", "first");
    await vscode.window.showTextDocument(uri("ledger/book.ts"));
    // @git reads the repository through VS Code's Git extension.
    await openedByGit(uri("ledger/book.ts"));
    await assert.rejects(addGit(), /@git: there are no uncommitted changes\./);
    assert.deepEqual(pending(), []);

    writeFileSync(join(repo, "book.ts"), book.replace("  return entries.reduce((a, b) => a + b, 0);", "  return entries.reduce((a, b) => a + b, 0) / 100;"));
    writeFileSync(join(repo, "rates.ts"), "export const vat = 0.2;\n");
    git("add", "rates.ts");

    const [attached] = await mention("", "git", (i) => i.label === "@git");
    assert.deepEqual([attached!.source, attached!.label, attached!.language, attached!.path], ["git", "Uncommitted changes (git diff)", "diff", "ledger"]);
    const text = attached!.text;
    assert.match(text, /^diff --git a\/rates\.ts b\/rates\.ts\nnew file mode/, "the staged new file comes first");
    assert.ok(text.includes("+export const vat = 0.2;"), text);
    assert.ok(text.includes("diff --git a/book.ts b/book.ts"), text);
    assert.ok(text.includes("-  return entries.reduce((a, b) => a + b, 0);\n+  return entries.reduce((a, b) => a + b, 0) / 100;"), text);
    assert.ok(!text.includes("notes.md"), "a committed, unchanged file is not in the diff");
    assert.equal(text, [git("diff", "--cached"), git("diff")].join("\n"), "exactly what git reports");
    const turn = await send("Review my changes.");
    assert.deepEqual(turn.attachments.map((a) => a.source), ["git"]);
    assert.ok(lastRequestText().includes("+  return entries.reduce((a, b) => a + b, 0) / 100;"), "the request carries the diff");
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("with wisp.chat.workspaceContext off, nothing is found or indexed; turned on again, the draft being written gets its snippets once the index is built", async () => {
    // Asked from checkout.ts (the active file's own code is not offered as found).
    await vscode.window.showTextDocument(uri("shop/src/checkout.ts"));
    const chatId = api.chat.state().chat.id;
    const draft = "Why does applyDiscount throw here?";
    const foundPaths = () => pending().filter((a) => a.source === "found").map((a) => a.path);
    await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft });
    await waitFor("snippets found for the draft", async () => foundPaths(), (p) => p.includes("shop/src/pricing.ts"));
    await vscode.workspace.getConfiguration("wisp.chat").update("workspaceContext", false, vscode.ConfigurationTarget.Global);
    await waitFor("the index off", async () => api.chat.index(), (s) => s.state === "off" && s.files === 0);
    assert.deepEqual(foundPaths(), [], "turning the context off takes the found snippets off the draft");
    await api.chat.fromView({ type: "viewState", chatId, scrollTop: 0, draft: `${draft} ` });
    assert.deepEqual(pending(), []);
    // No typing after this: the snippets come with the index, from the draft the view last saved.
    await vscode.workspace.getConfiguration("wisp.chat").update("workspaceContext", undefined, vscode.ConfigurationTarget.Global);
    await waitFor("the index back", async () => api.chat.index(), (s) => s.state === "ready" && s.files > 0);
    await waitFor("snippets found for the draft, with no keystroke", async () => foundPaths(), (p) => p.includes("shop/src/pricing.ts"));
  });
});
