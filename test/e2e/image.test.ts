import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { startLocalTextServer, type LocalTextServer } from "../harness/local-text-server";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import { WorkbenchPage } from "../harness/workbench-page";
import { startWorkbench, userSettingsPath, type WorkbenchSession } from "../harness/workbench-session";
import { screenshotOnFailure } from "./support/screenshot-on-failure";
import { assertWispRaisedNothing } from "./support/stop-workbench";

const imageModel = "wisp-tiny-diffusion";
/** Kept small so that each image takes a moment on the tiny model. */
const settings = { "wisp.image.width": 96, "wisp.image.height": 64, "wisp.image.steps": 2 };

describe("Image generation in the real VS Code UI against the local server (code-server + Chromium)", () => {
  const temp = new TempDirs();
  let server: LocalTextServer;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage;
  let folder: string;
  const imagesDir = () => join(folder, "images");
  const imageFiles = () => (existsSync(imagesDir()) ? readdirSync(imagesDir()).sort() : []);

  before(async () => {
    const toolchain = ensureToolchain();
    const vsix = ensureVsix();
    server = await startLocalTextServer(repoRoot);
    folder = temp.make("e2e-image");
    writeFileSync(join(folder, "notes.md"), "# Notes\n");
    session = await startWorkbench({
      toolchain,
      vsixes: [vsix],
      folder,
      settings: { "wisp.baseUrl": server.baseUrl, ...settings },
      env: { WISP_API_KEY: server.key },
      tempPrefix: "e2e-image-",
    });
    ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
    await waitFor("Wisp ready", () => ui.statusText("wisp.wisp.wisp.status").catch(() => ""), (t) => /^Wisp( \d+ms)? · tiny models$/.test(t), 60_000);
  });
  after(async () => {
    await session?.stop();
    await server?.stop();
    temp.removeAll();
    assertWispRaisedNothing(session);
  });
  screenshotOnFailure(() => session?.page, () => session?.userDataDir);

  const quickTitle = () => ui.page.locator(".quick-input-widget .quick-input-title");
  const quickRow = (text: string) => ui.page.locator(".quick-input-widget .quick-input-list .monaco-list-row", { hasText: text });
  const toast = (text: string) => ui.page.locator(".notifications-toasts .notification-toast", { hasText: text });

  /** Starts `command` and types `prompt`; with `model`, first waits until the extension uses it (the prompt's title names it). */
  async function startWithPrompt(command: string, prompt: string, model?: string): Promise<void> {
    await ui.runCommand(command);
    await quickTitle().filter({ hasText: command }).waitFor();
    if (model !== undefined) {
      // A setting written to settings.json reaches the extension a moment later: ask again until it has.
      await waitFor(`${command} with ${model}`, async () => {
        if (await quickTitle().filter({ hasText: `(${model})` }).isVisible()) return true;
        await ui.page.keyboard.press("Escape");
        await ui.runCommand(command);
        await quickTitle().filter({ hasText: command }).waitFor();
        return false;
      }, (ok) => ok, 30_000);
    }
    await ui.quickInputBox().fill(prompt);
    await quickRow("new prompt").filter({ hasText: prompt }).waitFor();
    await ui.pressInQuickInput("Enter");
    await quickRow("Custom size…").waitFor();
  }

  /** The image the server makes for these inputs, asked for directly. */
  async function direct(prompt: string, seed: number, width: number, height: number): Promise<Buffer> {
    const response = await fetch(`${server.baseUrl}/images/generations`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: imageModel, prompt, negative_prompt: "", width, height, num_inference_steps: 2, seed, response_format: "b64_json" }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const body = (await response.json()) as { data: { b64_json: string }[] };
    return Buffer.from(body.data[0]!.b64_json, "base64");
  }

  it("Wisp: Generate Image takes a typed prompt and a custom size, opens the image, and shows the seed that makes it again", async () => {
    await startWithPrompt("Wisp: Generate Image", "a lighthouse at dusk");
    await ui.pickQuickItem("Custom size…");
    const input = ui.quickInputBox();
    await waitFor("the size prefilled from the settings", () => input.inputValue(), (v) => v === "96x64");
    await input.fill("100x80");
    await ui.page.locator(".quick-input-widget .quick-input-message", { hasText: "multiple of 8" }).waitFor();
    await input.fill("120x80");
    await ui.pressInQuickInput("Enter");

    const saved = toast("Wisp: saved images/a-lighthouse-at-dusk-");
    await saved.waitFor({ timeout: 60_000 });
    const message = (await ui.notifications()).find((m) => m.startsWith("Wisp: saved images/a-lighthouse-at-dusk-"))!;
    const match = /^Wisp: saved images\/(a-lighthouse-at-dusk-\d{8}-\d{6}\.png) \(120×80, seed (\d+)\)\.$/.exec(message);
    assert.ok(match, message);
    const [, name, seed] = match;
    assert.ok(await saved.locator(".monaco-button", { hasText: "Copy Seed" }).isVisible());
    await ui.page.locator(`.tabs-container .tab[data-resource-name="${name}"]`).waitFor();

    const bytes = readFileSync(join(imagesDir(), name!));
    const meta = await sharp(bytes).metadata();
    assert.deepEqual({ format: meta.format, width: meta.width, height: meta.height }, { format: "png", width: 120, height: 80 });
    assert.ok(bytes.equals(await direct("a lighthouse at dusk", Number(seed), 120, 80)), "the shown seed makes the same image");
    assert.deepEqual(imageFiles(), [name]);
  });

  it("the Cancel button of the progress notification stops the generation and writes nothing", async () => {
    const before = imageFiles();
    await startWithPrompt("Wisp: Generate Image", "a storm over the sea");
    // The advanced step: a size and step count slow enough to cancel.
    await ui.pickQuickItem("Advanced…");
    for (const [index, value] of ["1024x1024", "", "100", "-1"].entries()) {
      await quickTitle().filter({ hasText: `(${index + 1}/4)` }).waitFor();
      await ui.quickInputBox().fill(value);
      await ui.pressInQuickInput("Enter");
    }
    const progress = toast("Wisp: generating image 1024×1024, 100 steps");
    await progress.waitFor();
    await progress.locator(".monaco-button", { hasText: "Cancel" }).click();
    await progress.waitFor({ state: "detached" });
    assert.deepEqual(imageFiles(), before, "no new file, no partial file");
    assert.equal(await toast("a-storm-over-the-sea").count(), 0);
  });

  it("Wisp: Generate Image Variations shows the images side by side and saves the one picked", async () => {
    await startWithPrompt("Wisp: Generate Image Variations", "a paper boat on a pond");
    await ui.pickQuickItem("96×64");
    const view = ui.page.frameLocator(`iframe.webview.ready[src*="extensionId=wisp.wisp"]`).frameLocator("iframe#active-frame");
    await view.locator("img.variation-image").nth(3).waitFor({ timeout: 60_000 });
    assert.equal(await view.locator("img.variation-image").count(), 4, "wisp.image.variations by default");
    assert.equal(await view.locator(".variations-prompt").innerText(), "a paper boat on a pond");
    const seeds = (await view.locator(".variation-seed").allInnerTexts()).map((text) => Number(/^seed (\d+)$/.exec(text)?.[1]));
    assert.equal(new Set(seeds).size, 4, `four seeds: ${seeds.join(", ")}`);

    const before = imageFiles();
    await view.locator("button.variation-save").nth(1).click();
    const note = view.locator(".variation-note").nth(1);
    await waitFor("the saved note", () => note.innerText(), (text) => text.startsWith("Saved as images/a-paper-boat-on-a-pond-"), 30_000);
    const added = imageFiles().filter((name) => !before.includes(name));
    assert.equal(added.length, 1);
    assert.equal(await note.innerText(), `Saved as images/${added[0]}`);
    const bytes = readFileSync(join(imagesDir(), added[0]!));
    assert.ok(bytes.equals(await direct("a paper boat on a pond", seeds[1]!, 96, 64)), "the second image, made with its seed");
    await toast(`seed ${seeds[1]}`).waitFor();
  });

  it("a text model as the image model gives a readable error whose Select Model button fixes it", async () => {
    const settingsFile = userSettingsPath(session!.userDataDir);
    await ui.runCommand("Wisp: Select Model");
    await ui.pickQuickItem("Image");
    await quickRow(imageModel).waitFor();
    await ui.focusQuickRow(server.model);
    await ui.pressInQuickInput("Enter");
    await waitFor("the text model in settings.json", () => readFileSync(settingsFile, "utf8"), (t) => t.includes(`"wisp.image.model": "${server.model}"`));
    await startWithPrompt("Wisp: Generate Image", "a green meadow", server.model);
    await ui.pressInQuickInput("Enter");
    const error = toast("is not an image model");
    await error.waitFor({ timeout: 30_000 });
    const message = (await ui.notifications()).find((m) => m.includes("is not an image model"));
    assert.equal(
      message,
      `Wisp: "wisp-tiny" is not an image model on ${server.baseUrl} (model 'wisp-tiny' is a text model: use /v1/chat/completions or /v1/completions). ` +
        "Choose an image model with Wisp: Select Model.",
    );
    await error.locator(".monaco-button", { hasText: "Select Model" }).click();
    await quickRow(imageModel).waitFor();
    await ui.pickQuickItem(imageModel);
    await waitFor("wisp.image.model in settings.json", () => readFileSync(settingsFile, "utf8"), (t) => t.includes(`"wisp.image.model": "${imageModel}"`));
  });

  it("without a folder open, asks where to save before generating", async () => {
    const elsewhere = temp.make("e2e-image-elsewhere");
    // code-server's empty window (it would reopen the last folder otherwise).
    await ui.page.goto(new URL("/?ew=true", session!.server.url).toString());
    await ui.waitReady();
    await waitFor("the empty window with Wisp", () => ui.statusText("wisp.wisp.wisp.status").catch(() => ""), (t) => /^Wisp( \d+ms)? · tiny models$/.test(t), 60_000);
    await startWithPrompt("Wisp: Generate Image", "a moonlit garden");
    await ui.pressInQuickInput("Enter");
    // VS Code's own save dialog, offering a name made from the prompt in the home folder.
    const input = ui.quickInputBox();
    await waitFor("the save dialog", () => input.inputValue(), (value) => /\/a-moonlit-garden-\d{8}-\d{6}\.png$/.test(value));
    const file = join(elsewhere, "garden.png");
    await input.fill(file);
    await ui.page.locator(".quick-input-widget .monaco-button", { hasText: "OK" }).click();
    await toast(`Wisp: saved ${file} (96×64, seed `).waitFor({ timeout: 60_000 });
    const meta = await sharp(readFileSync(file)).metadata();
    assert.deepEqual({ format: meta.format, width: meta.width, height: meta.height }, { format: "png", width: 96, height: 64 });
    assert.deepEqual(readdirSync(elsewhere), ["garden.png"], "no temporary file left beside it");
  });
});
