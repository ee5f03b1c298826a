import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import sharp from "sharp";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import type { ImageCommandResult } from "../../src/extension/image/image-commands";
import { freePort } from "../harness/free-port";
import type { LocalTextServer } from "../harness/local-text-server";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectToLocalServer, logFromNow, resetWisp, setBaseUrl } from "./support/wisp-extension";

type Saved = Extract<ImageCommandResult, { kind: "saved" }>;
type Failed = Extract<ImageCommandResult, { kind: "failed" }>;

const imageSettings = ["model", "width", "height", "steps", "negativePrompt", "format", "folder", "sizePresets", "seed", "variations", "timeoutSeconds"];

describe("Wisp: Generate Image against the local server (real VS Code)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: LocalTextServer;
  const workspace = () => process.env.WISP_TEST_WORKSPACE!;
  const imagesDir = () => join(workspace(), "images");

  before(async () => {
    api = await activateWisp();
    server = await connectToLocalServer();
  });
  beforeEach(async () => {
    // Small and quick unless a test says otherwise.
    await configure({ width: 96, height: 64, steps: 2 });
    await vscode.commands.executeCommand("notifications.clearAll");
  });
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await configure({});
    rmSync(imagesDir(), { recursive: true, force: true });
  });
  after(async () => {
    await resetWisp();
    await server?.stop();
  });

  async function configure(values: Record<string, unknown>): Promise<void> {
    const config = vscode.workspace.getConfiguration("wisp.image");
    for (const key of imageSettings) await config.update(key, values[key], vscode.ConfigurationTarget.Global);
  }

  /** Opens a new workspace file with `text`, the cursor on the line that holds `|` (removed). */
  async function openWithCursor(name: string, text: string): Promise<vscode.TextEditor> {
    const file = join(workspace(), name);
    writeFileSync(file, text.replace("|", ""));
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const line = text.split("\n").findIndex((l) => l.includes("|"));
    const column = text.split("\n")[line]!.indexOf("|");
    editor.selection = new vscode.Selection(line, column, line, column);
    return editor;
  }

  /**
   * Runs an image command and answers its quick inputs the way Enter does, keeping what they
   * offer first (the prompt from the editor, the size from the settings), until it ends.
   */
  async function runAccepting(command: string, acceptWhile: () => boolean = () => true): Promise<ImageCommandResult> {
    const result = vscode.commands.executeCommand<ImageCommandResult>(command);
    let done: ImageCommandResult | undefined;
    void result.then((r) => (done = r));
    while (done === undefined) {
      if (acceptWhile()) await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return done;
  }

  async function generate(): Promise<Saved> {
    const result = await runAccepting("wisp.generateImage");
    assert.equal(result.kind, "saved", JSON.stringify(result));
    return result as Saved;
  }

  const fileOf = (result: Saved) => vscode.Uri.parse(result.uri).fsPath;
  const openTabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs);
  const imageFiles = () => (existsSync(imagesDir()) ? readdirSync(imagesDir()) : []);

  it("writes an image of the requested size and format from the comment under the cursor, and opens it in the image preview", async () => {
    await configure({ width: 96, height: 64, steps: 2, format: "webp" });
    await openWithCursor("scene.ts", "export const x = 1;\n// a lighthouse| at dusk,\n// oil painting\n");
    const result = await generate();
    assert.equal(result.prompt, "a lighthouse at dusk, oil painting");
    assert.equal(result.model, "wisp-tiny-diffusion", "the server's only image model, as wisp.image.model is empty");
    assert.match(basename(fileOf(result)), /^a-lighthouse-at-dusk-oil-painting-\d{8}-\d{6}\.webp$/);
    assert.equal(fileOf(result), join(imagesDir(), basename(fileOf(result))));
    const meta = await sharp(readFileSync(fileOf(result))).metadata();
    assert.deepEqual({ format: meta.format, width: meta.width, height: meta.height }, { format: "webp", width: 96, height: 64 });
    assert.ok(Number.isInteger(result.seed) && result.seed! >= 0, `the seed the server used: ${result.seed}`);
    const preview = await waitFor("the image preview tab", openTabs, (tabs) =>
      tabs.some((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === result.uri && tab.input.viewType === "imagePreview.previewEditor"),
    );
    assert.ok(preview.length > 0);
    assert.deepEqual(imageFiles(), [basename(fileOf(result))], "nothing else in the folder (no temporary file)");
    assert.ok(api.logLines().some((line) => line.includes(`seed ${result.seed}`)), "the seed is reported");
  });

  it("leaves the size to the model by default (wisp.image.width and height 0): 256×256 from the embedded one", async () => {
    await configure({ steps: 2 });
    await openWithCursor("own-size.ts", "// a red circle on a white background|\n");
    const result = await generate();
    assert.equal(result.model, "wisp-tiny-diffusion");
    assert.deepEqual(result.size, { width: 0, height: 0 }, "nothing asked: the server picks");
    const meta = await sharp(readFileSync(fileOf(result))).metadata();
    assert.deepEqual({ width: meta.width, height: meta.height }, { width: 256, height: 256 }, "the size it was trained at");
    assert.ok(api.logLines().some((line) => line.includes("image: generating image at the model's own size, 2 steps")), "the log says so");
  });

  it("makes the same bytes from the same seed, and the seed it reports makes the image again", async () => {
    await openWithCursor("seeds.ts", "// a red fox in the snow|\n");
    const random = await generate();
    await configure({ width: 96, height: 64, steps: 2, seed: random.seed });
    const again = await generate();
    assert.equal(again.seed, random.seed);
    assert.notEqual(again.uri, random.uri, "a second file, not an overwrite");
    assert.ok(readFileSync(fileOf(again)).equals(readFileSync(fileOf(random))), "the same bytes");
    await configure({ width: 96, height: 64, steps: 2, seed: random.seed! + 1 });
    const other = await generate();
    assert.ok(!readFileSync(fileOf(other)).equals(readFileSync(fileOf(random))), "another seed, another image");
  });

  it("saves under the home folder for a wisp.image.folder starting with ~, not in a folder named ~ in the workspace", async () => {
    const folder = join(homedir(), "wisp-images-from-tilde");
    try {
      await configure({ width: 96, height: 64, steps: 2, folder: "~/wisp-images-from-tilde" });
      await openWithCursor("tilde.ts", "// a green square|\n");
      const result = await generate();
      assert.equal(dirname(fileOf(result)), folder);
      assert.equal((await sharp(readFileSync(fileOf(result))).metadata()).width, 96);
      assert.equal(existsSync(join(workspace(), "~")), false, "no folder named ~ in the workspace");
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(join(workspace(), "~"), { recursive: true, force: true });
    }
  });

  it("offers the last prompt again when the editor suggests none", async () => {
    await openWithCursor("recent.ts", "// a castle made of glass|\n");
    await generate();
    await openWithCursor("code.ts", "export const y = 2;|\n");
    const result = await generate();
    assert.equal(result.prompt, "a castle made of glass");
  });

  it("Cancel on the progress notification aborts the request and leaves no file", async () => {
    // Large and slow enough to be cancelled while it runs.
    await configure({ width: 1024, height: 1024, steps: 100 });
    await openWithCursor("cancel.ts", "// a storm over the sea|\n");
    const since = logFromNow(api);
    const generating = () => since().some((line) => line.includes("image: generating"));
    const result = runAccepting("wisp.generateImage", () => !generating());
    await waitFor("the generation to start", generating, (started) => started);
    // The notification's only button is Cancel: run it the way the button does.
    const cancelled = await waitFor("the command to end", async () => {
      await vscode.commands.executeCommand("notification.acceptPrimaryAction");
      return Promise.race([result, new Promise<undefined>((done) => setTimeout(done, 300))]);
    }, (value) => value !== undefined, 30_000);
    assert.deepEqual(cancelled, { kind: "cancelled", at: "generation" });
    assert.ok(api.logLines().some((line) => /image: cancelled after \d+ ms/.test(line)));
    assert.deepEqual(imageFiles(), [], "no image and no partial file");
  });

  it("inserts a Markdown link to the image into the Markdown file it was made from", async () => {
    const editor = await openWithCursor("notes.md", "# Notes\n\n<!-- a quiet harbour| at night -->\n");
    const result = await generate();
    const link = `![a quiet harbour at night](images/${basename(fileOf(result))})`;
    // The saved message's first button is Insert Markdown Link.
    await waitFor("the link in the document", async () => {
      await vscode.commands.executeCommand("notification.acceptPrimaryAction");
      return editor.document.getText();
    }, (text) => text.includes(link));
    assert.equal(editor.document.getText(), `# Notes\n\n<!-- a quiet harbour at night -->\n\n${link}\n`);
  });

  it("says readably that a text model is not an image model, and offers Select Model", async () => {
    await configure({ width: 96, height: 64, steps: 2, model: server.model });
    await openWithCursor("text-model.ts", "// a green meadow|\n");
    const result = await runAccepting("wisp.generateImage");
    assert.deepEqual(result, {
      kind: "failed",
      message:
        `"wisp-tiny" is not an image model on ${server.baseUrl} (model 'wisp-tiny' is a text model: use /v1/chat/completions or /v1/completions). ` +
        "Choose an image model with Wisp: Select Model.",
      actions: ["Select Model"],
    });
    assert.deepEqual(imageFiles(), []);
  });

  it("says readably why the image could not be saved, and Save As… still saves the image it made", async () => {
    // A file where the images folder goes (a read-only folder does not stop root, who runs CI).
    writeFileSync(imagesDir(), "not a folder\n");
    await openWithCursor("blocked.ts", "// a red kite|\n");
    const result = await runAccepting("wisp.generateImage");
    assert.deepEqual(result, {
      kind: "failed",
      message: "Could not save the image in images: a file of that name is in the way of the folder.",
      actions: ["Save As…", "Open Settings"],
    });
    assert.equal(readFileSync(imagesDir(), "utf8"), "not a folder\n", "the file in the way is left as it was");
    const beside = () => readdirSync(workspace()).filter((name) => /^a-red-kite-\d{8}-\d{6}\.png$/.test(name));
    // Save As… (the message's first button), then the save dialog's own suggestion: the workspace folder.
    await vscode.commands.executeCommand("notification.acceptPrimaryAction");
    const [saved] = await waitFor("the image saved beside the blocked folder", async () => {
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return beside();
    }, (names) => names.length === 1);
    const meta = await sharp(readFileSync(join(workspace(), saved!))).metadata();
    assert.deepEqual({ format: meta.format, width: meta.width, height: meta.height }, { format: "png", width: 96, height: 64 });
    rmSync(join(workspace(), saved!));
  });

  it("names the file after what the server answered: PNG bytes for a JPEG request (as DALL·E answers) are saved as .png", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c00" } }).png().toBuffer();
    const asked: Record<string, unknown>[] = [];
    // A server that draws PNG whatever the format asked for.
    const pngOnly = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const answer = request.url?.endsWith("/images/generations")
          ? (asked.push(JSON.parse(body) as Record<string, unknown>), { created: 1, data: [{ b64_json: png.toString("base64") }] })
          : { object: "list", data: [{ id: "png-only", object: "model", owned_by: "test" }] };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => pngOnly.listen(0, "127.0.0.1", resolve));
    try {
      await setBaseUrl(`http://127.0.0.1:${(pngOnly.address() as AddressInfo).port}/v1`);
      await configure({ model: "png-only", format: "jpg", width: 96, height: 64, steps: 2 });
      await openWithCursor("kite.ts", "// a red kite|\n");
      const result = await generate();
      assert.equal(asked.length, 1);
      assert.equal(result.format, "png");
      assert.match(basename(fileOf(result)), /^a-red-kite-\d{8}-\d{6}\.png$/);
      assert.equal((await sharp(readFileSync(fileOf(result))).metadata()).format, "png");
    } finally {
      pngOnly.close();
      await setBaseUrl(server.baseUrl);
    }
  });

  it("says which size the server refused", async () => {
    await configure({ width: 2048, height: 512, steps: 1 });
    await openWithCursor("size.ts", "// a wide panorama|\n");
    const result = await runAccepting("wisp.generateImage");
    assert.deepEqual(result, {
      kind: "failed",
      message: "The server refused the size 2048×512 (width must be <= 1024). Choose another size.",
      actions: ["Try Again", "Open Settings"],
    });
  });

  it("explains a timeout", async () => {
    await configure({ width: 1024, height: 1024, steps: 100, timeoutSeconds: 1 });
    await openWithCursor("timeout.ts", "// a slow sunrise|\n");
    const result = await runAccepting("wisp.generateImage");
    assert.deepEqual(result, {
      kind: "failed",
      message: `No image came back from ${server.baseUrl} within 1 s. Try fewer steps or a smaller size, or allow more time (wisp.image.timeoutSeconds).`,
      actions: ["Open Settings", "Try Again"],
    });
    assert.deepEqual(imageFiles(), []);
  });

  it("says when there is no key before asking for anything, and offers Set API Key", async () => {
    await vscode.commands.executeCommand("wisp.clearApiKey");
    try {
      // Nothing is accepted: the command must end without showing an input.
      const result = (await runAccepting("wisp.generateImage", () => false)) as Failed;
      assert.equal(result.kind, "failed");
      assert.match(result.message, /^No API key is set\. Run "Wisp: Set API Key"/);
      assert.deepEqual(result.actions, ["Set API Key"]);
    } finally {
      await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    }
  });

  it("says when the server cannot be reached, and offers to start the local one", async () => {
    await configure({ model: "wisp-tiny-diffusion" });
    // A port nothing listens on.
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    await setBaseUrl(closed);
    try {
      await openWithCursor("offline.ts", "// a lonely island|\n");
      const result = (await runAccepting("wisp.generateImage")) as Failed;
      assert.equal(result.kind, "failed");
      assert.equal(result.message, `Cannot reach ${closed}: the connection was refused. Is the server running? Check the wisp.baseUrl setting.`);
      assert.deepEqual(result.actions, ["Start Local Server", "Open Settings"]);
    } finally {
      await setBaseUrl(server.baseUrl);
    }
  });

  it("Generate Image Variations shows N images with their own seeds side by side", async () => {
    await configure({ width: 64, height: 64, steps: 2, variations: 3 });
    await openWithCursor("variations.ts", "// a paper boat|\n");
    const result = await runAccepting("wisp.generateImageVariations");
    assert.equal(result.kind, "shown", JSON.stringify(result));
    const { seeds } = result as Extract<ImageCommandResult, { kind: "shown" }>;
    assert.equal(seeds.length, 3);
    assert.deepEqual(seeds, [seeds[0], seeds[0]! + 1, seeds[0]! + 2], "image i uses seed + i");
    await waitFor("the variations preview", openTabs, (tabs) =>
      tabs.some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith("wisp.imageVariations")),
    );
    assert.deepEqual(imageFiles(), [], "nothing is saved until one is picked");
  });
});
