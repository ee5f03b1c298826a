import assert from "node:assert/strict";
import path from "node:path";
import OpenAI from "openai";
import { writeDiffusionModel } from "../../src/server/engines/image/default-model/default-image-model";
import { describeImage, generate, imageBytes } from "./images-helpers";
import { startServer, type TestServer } from "./server-fixture";

const STATIC = "sd-static-shape";

// Some ONNX exports fix the UNet's latent height and width (static shapes): the model makes one size.
describe("an image model exported for one size", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ prepare: (modelsDir) => writeDiffusionModel(path.join(modelsDir, STATIC), { unetLatentSize: 8 }) });
  });
  after(() => server.close());

  it("draws at that size when the request names none (as Generate Image asks by default)", async () => {
    const { body } = await generate(server.client, { model: STATIC, width: undefined, height: undefined });
    assert.deepEqual(await describeImage(imageBytes(body)), { format: "png", width: 64, height: 64 });
  });

  it("answers 400 naming the size it makes for any other size", async () => {
    const error = await generate(server.client, { model: STATIC, width: 128, height: 128 }).then(
      () => assert.fail("expected a 400"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, "size");
    assert.match(error.message, /makes 64x64 images only/);
  });
});
