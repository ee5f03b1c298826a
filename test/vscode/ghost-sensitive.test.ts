import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { outcomesQuiet } from "./support/completion-outcomes";
import { writeNotebook } from "./support/notebook-file";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";

const secret = "tok_ghost_secret_5e1f";

/** A file matching wisp.sensitiveFiles never goes to the server by itself: no warm-up, no ghost text, no context for other files. */
describe("Ghost text and sensitive files (real VS Code, scripted server)", function () {
  this.timeout(60_000);
  const key = "sk-wisp-ghost-sensitive";
  let api: WispApi;
  let server: ScriptedApi;
  const workspace = process.env.WISP_TEST_WORKSPACE!;
  const envFile = join(workspace, ".env.ghost");
  const appFile = join(workspace, "ghost-app.txt");

  before(async () => {
    api = await activateWisp();
    server = await ScriptedApi.start({ key, models: ["wisp-scripted"], complete: () => " + 1;" });
    await connectWisp(api, server.baseUrl, key);
    writeFileSync(envFile, `API_TOKEN=${secret}\nDB_URL=\n`);
    writeFileSync(appFile, "total = price * quantity\nsubtotal = \n");
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(envFile, { force: true });
    rmSync(appFile, { force: true });
    await resetWisp();
    await server?.close();
  });

  it("opening and typing in a .env sends nothing, and the next file's requests carry none of its text", async () => {
    const since = server.completions.length;
    const env = await vscode.window.showTextDocument(vscode.Uri.file(envFile));
    const end = env.document.lineAt(1).range.end;
    env.selection = new vscode.Selection(end, end);
    await vscode.commands.executeCommand("type", { text: "postgres" });
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");

    // Then a file that is not sensitive: its warm-up and completion do go out.
    const app = await vscode.window.showTextDocument(vscode.Uri.file(appFile));
    const at = app.document.lineAt(1).range.end;
    app.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand("type", { text: "x" });
    await waitFor("the completion of ghost-app.txt", () => server.textRequests.filter((c) => c.body.prompt.includes("subtotal = x")), (r) => r.length > 0, 10_000);

    const sent = server.completions.slice(since).map((c) => JSON.stringify(c.body));
    assert.ok(sent.length > 0);
    assert.deepEqual(sent.filter((body) => body.includes(secret) || body.includes("API_TOKEN") || body.includes("postgres")), []);
  });

  it("a notebook in a folder wisp.sensitiveFiles names sends nothing from its cells; another notebook's cell is completed after the code cells above it", async () => {
    const folder = join(workspace, "private-nb");
    mkdirSync(folder, { recursive: true });
    const secretNotebook = join(folder, "keys.ipynb");
    const salesNotebook = join(workspace, "ghost-sales.ipynb");
    writeNotebook(secretNotebook, [`API_TOKEN = "${secret}"`, "client = "]);
    writeNotebook(salesNotebook, ["import pandas as pd", { markdown: "# Sales by month" }, "sales = pd.read_csv('sales.csv')", "monthly = "]);
    const sensitiveFiles = vscode.workspace.getConfiguration("wisp").inspect<string[]>("sensitiveFiles")?.defaultValue ?? [];
    await vscode.workspace.getConfiguration("wisp").update("sensitiveFiles", [...sensitiveFiles, "private-nb/"], vscode.ConfigurationTarget.Global);
    const opened: vscode.NotebookDocument[] = [];
    const typeAtEnd = async (path: string, index: number, text: string) => {
      const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(path));
      opened.push(notebook);
      await vscode.window.showNotebookDocument(notebook);
      const editor = await vscode.window.showTextDocument(notebook.cellAt(index).document);
      await waitFor("the cell's editor active", () => vscode.window.activeTextEditor, (active) => active === editor);
      const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
      editor.selection = new vscode.Selection(end, end);
      await vscode.commands.executeCommand("type", { text });
    };
    try {
      const since = server.completions.length;
      await typeAtEnd(salesNotebook, 3, "s");
      const asked = await waitFor("the completion of the sales notebook's cell", () => server.textRequests.filter((c) => c.body.prompt.includes("monthly = s")), (r) => r.length > 0, 10_000);
      await outcomesQuiet(api);
      // The same typing in the other notebook: its completion would have gone by the time the pipeline is quiet again.
      await typeAtEnd(secretNotebook, 1, "s");
      await outcomesQuiet(api);
      const sent = server.completions.slice(since).map((c) => JSON.stringify(c.body));
      assert.deepEqual(sent.filter((body) => body.includes(secret) || body.includes("client = s")), []);
      const prompt = asked[0]!.body.prompt;
      assert.ok(prompt.includes("import pandas as pd\n\nsales = pd.read_csv('sales.csv')\n\nmonthly = s"), `the code cells above come first: ${prompt}`);
      assert.ok(!prompt.includes("Sales by month") && !prompt.includes('"cells"'), "no markdown cell, no notebook JSON");
    } finally {
      await vscode.workspace.getConfiguration("wisp").update("sensitiveFiles", undefined, vscode.ConfigurationTarget.Global);
      for (const notebook of opened) {
        await vscode.window.showNotebookDocument(notebook);
        await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      }
      rmSync(folder, { recursive: true, force: true });
      rmSync(salesNotebook, { force: true });
    }
  });
});
