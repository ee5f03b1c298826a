import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { fromServer, type CompletionOutcome } from "../../src/core/completion/types";
import type { WispApi } from "../../src/extension/extension";
import { directCompletion, type PlainTextCursor } from "../harness/direct-completion";
import { startLocalTextServer, type LocalTextServer } from "../harness/local-text-server";
import { waitFor } from "../harness/wait-for";
import { outcomesQuiet } from "./support/completion-outcomes";
import { activateWisp, resetWisp, setBaseUrl, wispExtensionId } from "./support/wisp-extension";

type Shown = Extract<CompletionOutcome, { kind: "shown" }>;

const sampleText = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
/** wisp.completion.maxTokens by default (package.json). */
const defaultMaxTokens = 64;

describe("Ghost-text completion against the local server (real VS Code)", function () {
  this.timeout(90_000);
  let api: WispApi;
  let server: LocalTextServer;
  let file: string;

  before(async () => {
    api = await activateWisp();
    const root = vscode.extensions.getExtension(wispExtensionId)!.extensionPath;
    server = await startLocalTextServer(root);
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await waitFor("status ready", () => api.statusBar(), (view) => view.state === "ready", 30_000);
  });
  beforeEach(async () => {
    await configureDebounce(undefined);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    if (file) rmSync(file, { force: true });
  });
  after(async () => {
    await configureDebounce(undefined);
    await resetWisp();
    await server?.stop();
  });

  /** Opens a new workspace file with `text` and puts the cursor at its end. */
  async function openAtEnd(name: string, text: string): Promise<vscode.TextEditor> {
    file = join(process.env.WISP_TEST_WORKSPACE!, name);
    writeFileSync(file, text);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const end = editor.document.positionAt(text.length);
    editor.selection = new vscode.Selection(end, end);
    return editor;
  }

  /** Types like a user does (the `type` command is what a keystroke runs). */
  async function type(text: string): Promise<void> {
    for (const ch of text) await vscode.commands.executeCommand("type", { text: ch });
  }

  /** The first shown outcome after the first `since` outcomes. */
  function nextShown(since: number, timeoutMs = 30_000): Promise<Shown> {
    const find = () => api.completionOutcomes().slice(since).find((o): o is Shown => o.kind === "shown");
    return waitFor("ghost text", find, (o) => o !== undefined, timeoutMs) as Promise<Shown>;
  }

  /** Metrics once nothing is generating (and the pipeline's last outcome is in). */
  const settled = () => waitFor("the server idle", () => server.metrics(), (m) => m.sequences.busy === 0 && m.sequences.waiting === 0);

  it("shows the server's post-processed text as ghost text, Tab inserts it, and the status bar shows the latency", async () => {
    const editor = await openAtEnd("ghost-accept.txt", sampleText);
    const before = await server.metrics();
    const since = api.completionOutcomes().length;
    await type("const x = ");
    const first = await nextShown(since);
    assert.ok(fromServer(first.source), `shown from ${first.source}`);
    // A multi-line answer is shown partial first and then whole, and the editor renders ghost text
    // a moment after the provider answers: Tab goes in once all that is over, as a user's would.
    await settled();
    await outcomesQuiet(api);
    const shown = api.completionOutcomes().slice(since).findLast((o): o is Shown => o.kind === "shown")!;
    assert.ok((await server.metrics()).requests > before.requests, "the server received the request");
    // The same request made directly, post-processed the same way: what the server returned.
    assert.equal(shown.text, (await directCompletion(server, cursorOf(editor), defaultMaxTokens)).ghost);
    assert.ok(shown.text.trim() !== "", "non-blank ghost text");
    // The cursor is at the end of the file: the whole answer (one line or more) lands after it.
    const text = editor.document.getText();
    // Tab again while it has changed nothing: on a loaded machine the text can be drawn later still.
    await waitFor("the suggestion inserted", async () => {
      if (editor.document.getText() === text) await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
      return editor.document.getText();
    }, (t) => t === text + shown.text);
    const view = await waitFor("status ready with a latency", () => api.statusBar(), (v) => v.state === "ready" && /\d+ms/.test(v.text));
    assert.match(view.tooltip, /Last completion: \d+ ms/);
  });

  it("typing through the suggestion shows the rest with no new request", async () => {
    // Plain text: no context from other files, so the answer is the same on every run.
    await openAtEnd("ghost-through.txt", sampleText);
    // The tiny model's answers are random text: take the first of these lines it answers with
    // enough characters to type into.
    let shown: Shown | undefined;
    let since = 0;
    for (const start of ["let y = ", "\nconst total = ", "\nreturn ", "\nsum(", "\nvalue = ", "\nname: ", "\nprint(", "\nlet z = ", "\nif (", "\nx = "]) {
      since = api.completionOutcomes().length;
      await type(start);
      await waitFor("an answer", () => api.completionOutcomes().slice(since).find((o) => o.kind === "shown" || o.kind === "empty"), (o) => o !== undefined, 30_000);
      // A multi-line answer is first shown partial (its first line) and then whole: what is on
      // screen is the last one shown once the server and the pipeline are done.
      await settled();
      await outcomesQuiet(api);
      const answer = api.completionOutcomes().slice(since).findLast((o) => o.kind === "shown" || o.kind === "empty");
      shown = answer?.kind === "shown" ? answer : undefined;
      if (shown && [...shown.text].length >= 3) break;
    }
    assert.ok(shown && [...shown.text].length >= 3, `a suggestion long enough to type into: ${JSON.stringify(shown?.text)}`);
    await settled();
    const before = await server.metrics();
    const typed = [...shown.text].slice(0, 2).join("");
    since = api.completionOutcomes().length;
    await type(typed);
    // One outcome per keystroke: the last one shows what is left after both characters.
    const expected = shown.text.slice(typed.length);
    const outcomes = await waitFor("the rest as ghost text", () => api.completionOutcomes().slice(since), (list) => list.some((o) => o.kind === "shown" && o.text === expected), 30_000);
    // The first keystroke's answer may be cancelled by the second one (the editor asks again), or,
    // on a loaded machine, asked for once the second character is in the document already (a
    // context no suggestion has, which waits out the debounce and is superseded): every answer
    // shown comes from the suggestion already there, and no request is made (below).
    const kinds = outcomes.map((o) => (o.kind === "shown" ? o.source : o.kind));
    const answered = kinds.filter((k) => k !== "cancelled" && k !== "debounced");
    assert.deepEqual(answered, answered.map(() => "type-through"), `${kinds.join(", ")} typing ${JSON.stringify(typed)} into ${JSON.stringify(shown.text)}`);
    assert.equal((await server.metrics()).requests, before.requests, "no request reached the server");
  });

  it("typing 20 characters fast sends at most 2 requests", async () => {
    const debounceMs = 200;
    await configureDebounce(debounceMs);
    await openAtEnd("ghost-fast.ts", sampleText);
    const before = await settled();
    const since = api.completionOutcomes().length;
    // Keystrokes as fast as the editor takes them; on a loaded machine one may still come later
    // than the wait (a third of the debounce between words), and such a pause may rightly send a
    // request: count those pauses.
    let pauses = 0;
    let last = performance.now();
    let previous = "";
    for (const ch of "const twentyChars = ") {
      await type(ch);
      const now = performance.now();
      if (now - last >= (/\w/.test(previous) ? debounceMs : debounceMs / 3)) pauses++;
      last = now;
      previous = ch;
    }
    await nextShown(since).catch(() => undefined); // the last keystroke's answer (ghost text or not)
    const after = await settled();
    const requests = after.requests - before.requests;
    assert.ok(requests >= 1 && requests <= 2 + pauses, `${requests} requests for 20 keystrokes with ${pauses} pauses`);
  });
});

/** The plain-text cursor of `editor`, for a direct request. */
function cursorOf(editor: vscode.TextEditor): PlainTextCursor {
  const document = editor.document;
  const offset = document.offsetAt(editor.selection.active);
  assert.equal(document.languageId, "plaintext");
  const text = document.getText();
  return { uri: document.uri.toString(), path: vscode.workspace.asRelativePath(document.uri), before: text.slice(0, offset), after: text.slice(offset) };
}

/** Sets wisp.completion.debounceMs (undefined: back to its default). */
async function configureDebounce(debounceMs: number | undefined): Promise<void> {
  await vscode.workspace.getConfiguration("wisp.completion").update("debounceMs", debounceMs, vscode.ConfigurationTarget.Global);
}
