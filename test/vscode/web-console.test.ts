import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { freePort } from "../harness/free-port";
import { waitFor } from "../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

describe("Wisp: Open Web Console", () => {
  let api: WispApi;
  before(async () => {
    api = await activateWisp();
  });
  after(() => resetWisp());

  const failure = async (pattern: RegExp) => {
    const result = await vscode.commands.executeCommand("wisp.openWebConsole");
    assert.equal(result, undefined, "nothing was opened");
    return waitFor("the logged reason", () => api.logLines().find((line) => line.includes("wisp.openWebConsole") && pattern.test(line)), (line) => line !== undefined);
  };

  it("is contributed to the command palette", async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes("wisp.openWebConsole"));
  });

  it("says the console belongs to the local server when the base URL is another machine", async () => {
    await setBaseUrl("https://api.example.com/v1");
    await failure(/web console belongs to Wisp's local server.*api\.example\.com/);
  });

  it("says the local server does not answer when nothing listens at the base URL", async () => {
    const port = await freePort();
    await setBaseUrl(`http://127.0.0.1:${port}/v1`);
    await failure(new RegExp(`local server at http://127\\.0\\.0\\.1:${port} does not answer: start it with Wisp: Start Local Server`));
  });
});
