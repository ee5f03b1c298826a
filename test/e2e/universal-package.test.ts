import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { universal } from "../../scripts/package/vsix-name.mjs";
import { ScriptedApi } from "../harness/scripted-api";
import { ensureVsixes } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import { useWorkbench } from "./support/workbench-suite";

const statusId = "wisp.wisp.wisp.status";
const key = "sk-universal-test";
const answer = "scriptedAnswer42";

describe("The universal package (no local server) installed in the real VS Code, against a server elsewhere", function () {
  this.timeout(300_000);
  const suite = useWorkbench(async (temp) => {
    const [vsix] = ensureVsixes([universal]);
    assert.match(vsix!, /\/wisp-[\d.]+\.vsix$/);
    const folder = temp.make("e2e-universal");
    writeFileSync(join(folder, "notes.txt"), "export const one = 1;\n");
    const server = await ScriptedApi.start({ key, models: ["wisp-scripted"], complete: () => answer });
    // Auto-start stays at its default (on): with no server in the package it must start nothing.
    return { server, workbench: { vsixes: [vsix!], folder, settings: { "wisp.baseUrl": server.baseUrl }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-universal-" } };
  });

  it("is ready against the server at wisp.baseUrl and shows its answer as ghost text", async () => {
    const ui = suite.ui;
    await waitFor("Wisp ready", () => ui.statusText(statusId).catch(() => ""), (t) => /^Wisp( \d+ms)?$/.test(t), 60_000);
    await ui.openFile("notes.txt");
    await ui.typeAtEnd("const two = ");
    assert.equal(await ui.waitForGhostText(30_000), answer);
    assert.ok(suite.server.completions.some((c) => c.body.prompt.includes("const two = ")), "the scripted server was asked");
  });

  it("Start Local Server explains that no engine is bundled and where to point Wisp instead", async () => {
    const ui = suite.ui;
    await ui.page.keyboard.press("Escape");
    await ui.runCommand("Wisp: Start Local Server");
    const explained = (shown: string[]) => shown.filter((m) => m.includes("no local server bundled"));
    const [message] = explained(await waitFor("the explanation", () => ui.notifications(), (shown) => explained(shown).length > 0, 15_000));
    assert.match(message!, /universal package/);
    assert.match(message!, /no engine runs here/);
    assert.match(message!, /wisp\.baseUrl/);
    assert.match(message!, /wisp\.localServer\.command/);
    assert.match(message!, /darwin-arm64/);
  });
});
