import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CompletionInput, CompletionOutcome } from "../../src/core/completion/types";
import type { WispApi } from "../../src/extension/extension";
import { InlineCompletionAdapter, type AdapterDeps, type ProviderSettings } from "../../src/extension/completion/inline-provider";
import { ScriptedApi } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";

const invoke: vscode.InlineCompletionContext = { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined };
const automatic: vscode.InlineCompletionContext = { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined };
const shown: CompletionOutcome = { kind: "shown", text: "e(price, rate);", replace: 0, source: "network", multiline: false, latencyMs: 1 };

/**
 * The provider is where VS Code calls Wisp on every keystroke: whatever fails behind it is logged
 * and answered with no items, never thrown at the editor; the toggle and the language list stop
 * only what comes by itself, so Trigger Completion works wherever the user asks for it.
 */
describe("Ghost-text provider boundary (real VS Code)", function () {
  this.timeout(90_000);
  let document: vscode.TextDocument;
  const token = () => new vscode.CancellationTokenSource().token;

  before(async () => {
    document = await vscode.workspace.openTextDocument({ language: "typescript", content: "const tax = taxa" });
  });

  /** An adapter over `complete`, recording what it was asked and what it failed with. */
  function adapter(overrides: Partial<AdapterDeps> & { settings?: () => ProviderSettings } = {}) {
    const asked: CompletionInput[] = [];
    const failed: unknown[] = [];
    const provider = new InlineCompletionAdapter({
      complete: async (input) => {
        asked.push(input);
        return shown;
      },
      settings: () => ({ enabled: true, disabledLanguages: [] }),
      report: () => undefined,
      fail: (error) => failed.push(error),
      ...overrides,
    });
    return { provider, asked, failed };
  }

  it("an error from toInput is logged and answered with no items", async () => {
    const { provider, asked, failed } = adapter();
    // toInput reads the document's text: a document that cannot be read makes it throw.
    const unreadable = () => {
      throw new Error("unreadable document");
    };
    const broken: vscode.TextDocument = Object.create(document, { getText: { value: unreadable } });
    const items = await provider.provideInlineCompletionItems(broken, new vscode.Position(0, 16), invoke, token());
    assert.equal(items, undefined);
    assert.equal(asked.length, 0, "the pipeline was not asked");
    assert.deepEqual(failed.map((e) => (e as Error).message), ["unreadable document"]);
  });

  it("an error from the outcome report is logged and answered with no items", async () => {
    const { provider, asked, failed } = adapter({ report: () => { throw new Error("status bar gone"); } });
    const items = await provider.provideInlineCompletionItems(document, new vscode.Position(0, 16), invoke, token());
    assert.equal(items, undefined);
    assert.equal(asked.length, 1);
    assert.deepEqual(failed.map((e) => (e as Error).message), ["status bar gone"]);
  });

  it("a rejected completion is logged and answered with no items", async () => {
    const { provider, failed } = adapter({ complete: () => Promise.reject(new Error("pipeline broke")) });
    const items = await provider.provideInlineCompletionItems(document, new vscode.Position(0, 16), automatic, token());
    assert.equal(items, undefined);
    assert.deepEqual(failed.map((e) => (e as Error).message), ["pipeline broke"]);
  });

  const gates: [name: string, settings: ProviderSettings][] = [
    ["completions toggled off", { enabled: false, disabledLanguages: [] }],
    ["the language disabled", { enabled: true, disabledLanguages: ["typescript"] }],
  ];
  for (const [name, settings] of gates) {
    it(`${name}: nothing by itself, an explicit trigger still completes`, async () => {
      const { provider, asked, failed } = adapter({ settings: () => settings });
      const at = new vscode.Position(0, 16);
      assert.equal(await provider.provideInlineCompletionItems(document, at, automatic, token()), undefined);
      assert.equal(asked.length, 0, "an automatic trigger asks nothing");
      const items = await provider.provideInlineCompletionItems(document, at, invoke, token());
      assert.equal(asked.length, 1);
      assert.equal(asked[0]!.manual, true);
      assert.deepEqual(items?.map((i) => i.insertText), ["e(price, rate);"]);
      assert.deepEqual(failed, []);
    });
  }

  describe("with the extension and a scripted server", () => {
    const key = "sk-wisp-boundary";
    let api: WispApi;
    let server: ScriptedApi;
    let file: string | undefined;

    before(async () => {
      api = await activateWisp();
      server = await ScriptedApi.start({ key, models: ["wisp-scripted"], complete: () => "ble(price, rate);" });
      await connectWisp(api, server.baseUrl, key);
    });
    after(async () => {
      await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      if (file) rmSync(file, { force: true });
      await resetWisp();
      await server?.close();
    });

    it("Trigger Completion shows ghost text with completions toggled off", async () => {
      await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
      file = join(process.env.WISP_TEST_WORKSPACE!, "boundary.ts");
      writeFileSync(file, "const tax = taxa\n");
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
      const end = editor.document.lineAt(0).range.end;
      editor.selection = new vscode.Selection(end, end);
      const since = api.completionOutcomes().length;
      await vscode.commands.executeCommand("wisp.triggerCompletion");
      const outcome = await waitFor("an outcome of the explicit trigger", () => api.completionOutcomes().slice(since), (o) => o.length > 0, 30_000);
      assert.equal(outcome[0]!.kind === "shown" && outcome[0]!.text, "ble(price, rate);");
    });
  });
});
