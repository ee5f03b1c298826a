import assert from "node:assert/strict";
import { buildImageRequest, imageMediaType, seedProblem, stepsProblem } from "../../../../src/core/image/image-request";

describe("image requests", () => {
  it("carries every field of the seed API and asks for inline base64 images", () => {
    const request = buildImageRequest({
      model: "wisp-tiny-diffusion",
      prompt: "a lighthouse",
      negativePrompt: "blurry",
      size: { width: 256, height: 128 },
      steps: 6,
      seed: -1,
      format: "webp",
      count: 3,
    });
    assert.deepEqual(request, {
      model: "wisp-tiny-diffusion",
      prompt: "a lighthouse",
      negative_prompt: "blurry",
      width: 256,
      height: 128,
      num_inference_steps: 6,
      seed: -1,
      response_format: "b64_json",
      response_extension: "webp",
      n: 3,
    });
  });

  it("leaves a side of 0 (the model's own) out of the request, for the server to pick", () => {
    const options = { model: "m", prompt: "p", negativePrompt: "", steps: 2, seed: 1, format: "png" as const, count: 1 };
    const unsized = buildImageRequest({ ...options, size: { width: 0, height: 0 } });
    assert.ok(!("width" in unsized) && !("height" in unsized), JSON.stringify(unsized));
    const wide = buildImageRequest({ ...options, size: { width: 768, height: 0 } });
    assert.deepEqual([wide.width, "height" in wide], [768, false]);
  });

  it("checks seeds and steps before sending", () => {
    for (const ok of [-1, 0, 42, 4_294_967_295]) assert.equal(seedProblem(ok), undefined, String(ok));
    for (const bad of [-2, 1.5, 4_294_967_296, Number.NaN]) assert.match(seedProblem(bad) ?? "", /-1 \(random\)/, String(bad));
    assert.equal(stepsProblem(1), undefined);
    assert.equal(stepsProblem(100), undefined);
    for (const bad of [0, 101, 2.5]) assert.match(stepsProblem(bad) ?? "", /1 to 100/, String(bad));
  });

  it("names the media type of each format", () => {
    assert.equal(imageMediaType("png"), "image/png");
    assert.equal(imageMediaType("jpg"), "image/jpeg");
    assert.equal(imageMediaType("webp"), "image/webp");
  });
});
