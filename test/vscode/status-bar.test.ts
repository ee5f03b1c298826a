import * as assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { startModelsServer, type ModelsServer } from "../harness/models-server";
import { waitFor } from "../harness/wait-for";
import { activateWisp, logFromNow, resetWisp, setBaseUrl } from "./support/wisp-extension";

describe("Wisp status bar", () => {
  const key = "sk-wisp-status";
  let api: WispApi;
  let server: ModelsServer;

  before(async () => {
    api = await activateWisp();
    server = await startModelsServer({ key, models: ["tiny-coder-1m", "tiny-chat-1m"] });
  });
  beforeEach(() => resetWisp());
  after(async () => {
    await resetWisp();
    await server?.close();
  });

  const state = (wanted: string) => waitFor(`status ${wanted}`, () => api.statusBar(), (view) => view.state === wanted);

  it("asks for a key when none is set", async () => {
    await setBaseUrl(server.baseUrl);
    const view = await state("no-key");
    assert.match(view.text, /no API key/);
    assert.match(view.tooltip, /Set API Key/);
  });

  it("says unreachable when nothing listens at the base URL", async () => {
    const closed = await startModelsServer({ key, models: [] });
    await closed.close();
    await vscode.commands.executeCommand("wisp.setApiKey", key);
    await setBaseUrl(closed.baseUrl);
    const view = await state("unreachable");
    assert.match(view.text, /unreachable/);
    assert.ok(view.tooltip.includes(closed.baseUrl), "the tooltip names the server");
  });

  it("user settings: with editor.inlineSuggest.enabled off for the active file's language, the tooltip says the editor shows no ghost text there", async () => {
    const markdown = vscode.workspace.getConfiguration("editor", { languageId: "markdown" });
    await markdown.update("inlineSuggest.enabled", false, vscode.ConfigurationTarget.Global, true);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: "markdown", content: "# Notes\n" }));
      await waitFor("the tooltip of a markdown file", () => api.statusBar().tooltip, (tooltip) => /^Completions: on, but editor\.inlineSuggest\.enabled is off here/m.test(tooltip));
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: "plaintext", content: "notes\n" }));
      await waitFor("the tooltip of a plain-text file", () => api.statusBar().tooltip, (tooltip) => /^Completions: on$/m.test(tooltip));
    } finally {
      await markdown.update("inlineSuggest.enabled", undefined, vscode.ConfigurationTarget.Global, true);
      // Both untitled files, unsaved: reverted, so that closing them asks nothing.
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("is ready once the server answers with the key, and follows the key", async () => {
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", key);
    const view = await state("ready");
    assert.match(view.text, /Wisp/);
    assert.match(view.tooltip, /2 models/);
    await vscode.commands.executeCommand("wisp.clearApiKey");
    await state("no-key");
  });

  it("Toggle Completions and Toggle Next-Edit Suggestions switch them in a workspace whose settings turn them on", async () => {
    const workspace = (setting: string, value: unknown) => vscode.workspace.getConfiguration("wisp").update(setting, value, vscode.ConfigurationTarget.Workspace);
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", key);
    await workspace("completion.enabled", true);
    await workspace("nextEdit.enabled", true);
    try {
      await state("ready");
      assert.equal(await vscode.commands.executeCommand("wisp.toggleCompletions"), false);
      await state("off");
      assert.equal(vscode.workspace.getConfiguration("wisp").get("completion.enabled"), false);
      assert.equal(await vscode.commands.executeCommand("wisp.toggleNextEdit"), false);
      assert.equal(vscode.workspace.getConfiguration("wisp").get("nextEdit.enabled"), false);
      assert.equal(await vscode.commands.executeCommand("wisp.toggleCompletions"), true);
      await state("ready");
      assert.equal(await vscode.commands.executeCommand("wisp.toggleNextEdit"), true);
      assert.equal(vscode.workspace.getConfiguration("wisp").get("nextEdit.enabled"), true);
    } finally {
      await workspace("completion.enabled", undefined);
      await workspace("nextEdit.enabled", undefined);
      for (const setting of ["completion.enabled", "nextEdit.enabled"]) await vscode.workspace.getConfiguration("wisp").update(setting, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("names where a base URL that redirects points, instead of following it to a 401 without the key", async () => {
    // The server's move to another origin (as http:// to https:// is): a redirect followed there
    // goes without the Authorization header.
    const moved = server.baseUrl.replace("127.0.0.1", "localhost");
    const redirecting = createServer((req, res) => {
      res.writeHead(301, { location: `${new URL(moved).origin}${req.url ?? ""}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const received = server.authorizations.length;
      await vscode.commands.executeCommand("wisp.setApiKey", key);
      await setBaseUrl(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/v1`);
      // The last check's state shows until this one ends (followed, the redirect ends as a rejected key).
      const view = await waitFor("the check of the redirecting server", () => api.statusBar(), (v) => v.tooltip.includes("redirects to") || v.state === "bad-key");
      assert.equal(view.state, "unreachable", view.tooltip);
      assert.ok(view.tooltip.includes(`redirects to ${moved} (301)`), view.tooltip);
      assert.equal(server.authorizations.length, received, "nothing reached the server redirected to");
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it("never shows or logs a password or key written into the base URL", async () => {
    const since = logFromNow(api);
    await setBaseUrl("http://alice:s3cret-pass@127.0.0.1:9/v1");
    const first = await waitFor("the tooltip names the server", () => api.statusBar().tooltip, (tooltip) => tooltip.includes("127.0.0.1:9"));
    await setBaseUrl("http://127.0.0.1:9/v1?api-version=2024-10-21&api-key=s3cret-query");
    await waitFor("the log has the new base URL", () => since().filter((l) => l.includes("base URL")).length, (n) => n >= 2);
    const shown = [first, api.statusBar().tooltip, ...since()].join("\n");
    assert.ok(shown.includes("127.0.0.1:9"), shown);
    assert.ok(!shown.includes("s3cret"), shown);
  });
});
