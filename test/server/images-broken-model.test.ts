import assert from "node:assert/strict";
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import OpenAI from "openai";
import { describeImage, generate, IMAGE_MODEL, imageBytes } from "./images-helpers";
import { startServer, type TestServer } from "./server-fixture";

const BROKEN = "sd-export-being-copied";

// A model folder whose UNet is not (yet) an ONNX file: an export still being copied in, or a broken one.
describe("an image model whose files cannot be loaded", function () {
  this.timeout(120_000);
  let server: TestServer;
  /** The server's own output (the editor's Wisp log, the CLI's stderr). */
  const lines: string[] = [];
  const unet = (model: string) => path.join(server.dir, "models", model, "unet", "model.onnx");
  before(async () => {
    server = await startServer({
      log: (line) => lines.push(line),
      prepare: async (modelsDir) => {
        await cp(path.join(import.meta.dirname, "..", "..", "models", IMAGE_MODEL), path.join(modelsDir, BROKEN), { recursive: true });
        await writeFile(path.join(modelsDir, BROKEN, "unet", "model.onnx"), "half a file");
      },
    });
  });
  after(() => server.close());

  it("says which model could not be loaded (not where its files are), and loads it again once its files are whole", async () => {
    const error = await generate(server.client, { model: BROKEN }).then(
      () => assert.fail("expected the generation to fail"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenAI.InternalServerError, String(error));
    assert.equal(error.param, "model");
    assert.equal(error.code, "model_load_failed");
    assert.match(error.message, new RegExp(`image model '${BROKEN}' could not be loaded`));
    assert.ok(!error.message.includes(server.dir), `the server's paths stay in its log: ${error.message}`);
    // And the log has the reason, naming the file.
    assert.ok(lines.some((line) => line.startsWith("POST /v1/images/generations failed: ") && line.includes(path.join(BROKEN, "unet"))), lines.join("\n"));

    // The copy finishes: the same running server now draws with it.
    await cp(unet(IMAGE_MODEL), unet(BROKEN));
    const { body } = await generate(server.client, { model: BROKEN });
    assert.deepEqual(await describeImage(imageBytes(body)), { format: "png", width: 64, height: 64 });
  });
});
