import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { provisionShippedModels } from "../../../src/extension/local-engine/shipped-models";
import { TempDirs } from "../../harness/temp-dirs";

describe("provisionShippedModels", () => {
  const temp = new TempDirs();
  afterEach(() => temp.removeAll());

  it("copies the shipped model files that the models folder lacks, and only those", async () => {
    const shipped = temp.make("shipped");
    const models = join(temp.make("storage"), "models");
    writeFileSync(join(shipped, "wisp-coder.gguf"), "trained weights");
    mkdirSync(join(shipped, "not-a-file"));
    assert.deepEqual(await provisionShippedModels(shipped, models), ["wisp-coder.gguf"]);
    assert.equal(readFileSync(join(models, "wisp-coder.gguf"), "utf8"), "trained weights");
    assert.deepEqual(readdirSync(models), ["wisp-coder.gguf"], "no partial files left");
    assert.deepEqual(await provisionShippedModels(shipped, models), [], "already there");
  });

  it("copies again a shipped file that changed (an updated extension)", async () => {
    const shipped = temp.make("shipped");
    const models = temp.make("models");
    writeFileSync(join(shipped, "wisp-coder.gguf"), "v1");
    await provisionShippedModels(shipped, models);
    writeFileSync(join(shipped, "wisp-coder.gguf"), "version 2");
    assert.deepEqual(await provisionShippedModels(shipped, models), ["wisp-coder.gguf"], "another size");
    const later = new Date(Date.now() + 60_000);
    writeFileSync(join(shipped, "wisp-coder.gguf"), "version 3");
    utimesSync(join(shipped, "wisp-coder.gguf"), later, later);
    assert.deepEqual(await provisionShippedModels(shipped, models), ["wisp-coder.gguf"], "same size, newer");
    assert.equal(readFileSync(join(models, "wisp-coder.gguf"), "utf8"), "version 3");
  });

  it("copies a shipped model folder (an image model) file by file, and again a file that changed", async () => {
    const shipped = temp.make("shipped");
    const models = temp.make("models");
    mkdirSync(join(shipped, "wisp-tiny-diffusion", "unet"), { recursive: true });
    writeFileSync(join(shipped, "wisp-tiny-diffusion", "model_index.json"), "{}");
    writeFileSync(join(shipped, "wisp-tiny-diffusion", "unet", "model.onnx"), "trained");
    assert.deepEqual(await provisionShippedModels(shipped, models), ["wisp-tiny-diffusion/model_index.json", "wisp-tiny-diffusion/unet/model.onnx"]);
    assert.equal(readFileSync(join(models, "wisp-tiny-diffusion", "unet", "model.onnx"), "utf8"), "trained");
    // A random-weight model the server generated earlier is replaced where it differs.
    writeFileSync(join(shipped, "wisp-tiny-diffusion", "unet", "model.onnx"), "trained further");
    assert.deepEqual(await provisionShippedModels(shipped, models), ["wisp-tiny-diffusion/unet/model.onnx"]);
    assert.deepEqual(readdirSync(join(models, "wisp-tiny-diffusion", "unet")), ["model.onnx"], "no partial files left");
  });

  it("does nothing without a shipped models folder", async () => {
    const models = temp.make("models");
    assert.deepEqual(await provisionShippedModels(join(models, "absent"), models), []);
    assert.deepEqual(readdirSync(models), []);
  });
});
