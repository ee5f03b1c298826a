import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
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
});
