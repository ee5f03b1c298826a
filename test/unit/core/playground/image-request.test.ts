import assert from "node:assert/strict";
import { buildImageRequest, imageSizes, type ImageSetup } from "../../../../src/core/playground/image-request";

const setup = (over: Partial<ImageSetup> = {}): ImageSetup => ({ model: "wisp-tiny-diffusion", prompt: "a red fox", negativePrompt: "", size: "256x256", steps: "4", seed: "", ...over });

describe("playground image request", () => {
  it("builds the generation body the server takes, seed only when given", () => {
    assert.deepEqual(buildImageRequest(setup()), {
      ok: true,
      body: { model: "wisp-tiny-diffusion", prompt: "a red fox", width: 256, height: 256, num_inference_steps: 4, response_format: "b64_json" },
    });
    const full = buildImageRequest(setup({ negativePrompt: "blur", seed: "42", size: "64x64" }));
    assert.ok(full.ok);
    assert.deepEqual(full.body, { model: "wisp-tiny-diffusion", prompt: "a red fox", negative_prompt: "blur", width: 64, height: 64, num_inference_steps: 4, seed: 42, response_format: "b64_json" });
  });

  it("offers only sizes the server accepts", () => {
    for (const size of imageSizes) {
      const [w, h] = size.split("x").map(Number);
      assert.ok(w! % 8 === 0 && w! >= 64 && w! <= 1024 && w === h, size);
    }
  });

  it("says what is missing or out of range", () => {
    const result = buildImageRequest(setup({ model: "", prompt: " ", steps: "0", seed: "-2", size: "big" }));
    assert.ok(!result.ok);
    assert.deepEqual(result.errors.map((e) => e.field), ["model", "prompt", "size", "steps", "seed"]);
  });
});
