import * as assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startModelsServer, type ModelsServer } from "../harness/models-server";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { userSettingsPath, type WorkbenchSession } from "../harness/workbench-session";
import { useWorkbench } from "./support/workbench-suite";

const statusId = "wisp.wisp.wisp.status";

describe("Wisp in the real VS Code UI (code-server + Chromium)", () => {
  const key = `sk-wisp-e2e-${Date.now().toString(36)}`;
  let server: ModelsServer;
  let session: WorkbenchSession;
  let ui: WorkbenchPage;
  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const started = await startModelsServer({ key, models: ["tiny-coder-1m", "tiny-chat-1m"] });
    const folder = temp.make("e2e-workspace");
    writeFileSync(join(folder, "math.ts"), "export function add(a: number, b: number): number {\n  return a + b;\n}\n");
    return { server: started, workbench: { vsixes: [vsix], folder, settings: { "wisp.baseUrl": started.baseUrl } } };
  });
  before(() => {
    ({ server, session, ui } = suite);
  });

  const statusBecomes = (wanted: (text: string) => boolean) =>
    waitFor("the Wisp status bar text", () => ui.statusText(statusId).catch(() => ""), wanted, 30_000);

  it("shows in the status bar that no key is set", async () => {
    await statusBecomes((text) => text.includes("no API key"));
    assert.equal(await ui.statusText(statusId), "Wisp: no API key");
  });

  it("opens a file and shows what is typed into it", async () => {
    await ui.openFile("math.ts");
    await ui.typeAtEnd("// typed by the e2e test");
    const text = await waitFor("the typed line", () => ui.editorText(), (t) => t.endsWith("// typed by the e2e test"));
    assert.match(text, /return a \+ b;\n}\n\/\/ typed by the e2e test$/);
  });

  it("Wisp: Set API Key from the palette takes the key in a password box and the status bar turns ready", async () => {
    await ui.runCommand("Wisp: Set API Key");
    // The palette's input gives way to the command's own input box, which masks what is typed.
    const input = ui.page.locator(".quick-input-widget .quick-input-box input[type=password]");
    await input.waitFor();
    await input.pressSequentially(key);
    await ui.page.keyboard.press("Enter");
    await ui.page.locator(".notifications-toasts", { hasText: "API key saved" }).waitFor();
    assert.ok((await ui.notifications()).some((m) => m.includes("API key saved in the secret store")));
    await statusBecomes((text) => text === "Wisp" || /^Wisp \d+ms$/.test(text));
    assert.ok(server.authorizations.includes(`Bearer ${key}`), "the server received the key");
    assert.ok(!readFileSync(userSettingsPath(session!.userDataDir), "utf8").includes(key), "settings.json does not hold the key");
  });

  it("Wisp: Select Model lists the server's models and writes the pick to settings.json", async () => {
    const row = (text: string) => ui.page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first();
    await ui.runCommand("Wisp: Select Model");
    await row("Completion").waitFor();
    // From the role to the model the pick stays open: count the times the quick input hides.
    await ui.page.evaluate(() => {
      const widget = document.querySelector<HTMLElement>(".quick-input-widget")!;
      const seen = window as unknown as { quickInputHides: number };
      seen.quickInputHides = 0;
      new MutationObserver(() => {
        if (widget.style.display === "none") seen.quickInputHides++;
      }).observe(widget, { attributes: true, attributeFilter: ["style"] });
    });
    await ui.pickQuickItem("Chat");
    await row("tiny-coder-1m").waitFor();
    // Back to the roles, and the role again.
    await ui.page.locator(".quick-input-widget .quick-input-titlebar .codicon-quick-input-back").click();
    await row("Completion").waitFor();
    await ui.pickQuickItem("Chat");
    await row("tiny-coder-1m").waitFor();
    assert.equal(await ui.page.evaluate(() => (window as unknown as { quickInputHides: number }).quickInputHides), 0, "the pick stayed open");
    await ui.pickQuickItem("tiny-chat-1m");
    const settingsFile = userSettingsPath(session!.userDataDir);
    await waitFor("wisp.chat.model in settings.json", () => readFileSync(settingsFile, "utf8"), (t) => t.includes('"wisp.chat.model": "tiny-chat-1m"'));
  });
});
