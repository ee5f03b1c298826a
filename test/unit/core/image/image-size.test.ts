import assert from "node:assert/strict";
import { dimensionProblem, formatSize, parseSize, sizeChoices } from "../../../../src/core/image/image-size";

describe("image sizes", () => {
  it("parses WIDTHxHEIGHT in the ways people write it", () => {
    for (const text of ["512x768", " 512 x 768 ", "512×768", "512*768", "512X768"]) {
      assert.deepEqual(parseSize(text), { size: { width: 512, height: 768 } }, text);
    }
  });

  it("refuses sizes that are not multiples of 8, out of range, or not sizes, saying why", () => {
    assert.deepEqual(parseSize("500x512"), { problem: "The width must be a multiple of 8: 500 is not (496 or 504 are)." });
    assert.deepEqual(parseSize("512x20"), { problem: "The height must be from 64 to 2048 pixels, not 20." });
    assert.deepEqual(parseSize("4096x512"), { problem: "The width must be from 64 to 2048 pixels, not 4096." });
    for (const text of ["", "512", "512x", "big", "-512x512", "51.2x512"]) {
      assert.deepEqual(parseSize(text), { problem: "Enter the size as WIDTHxHEIGHT, e.g. 512x768." }, text);
    }
    assert.equal(dimensionProblem("width", 64), undefined);
    assert.equal(dimensionProblem("height", 2048), undefined);
    assert.match(dimensionProblem("width", 64.5) ?? "", /whole number/);
  });

  it("offers the settings' size first, then the presets in order without repeats, and sets invalid presets apart", () => {
    const { choices, invalid } = sizeChoices({ width: 512, height: 512 }, ["256x256", "512x512", "oops", "768x512", "256 x 256", "100x100"]);
    assert.deepEqual(choices.map((c) => `${formatSize(c.size)} ${c.origin}`), ["512×512 settings", "256×256 preset", "768×512 preset"]);
    assert.deepEqual(invalid, ["oops", "100x100"]);
  });

  it("offers the model's own size first where the settings leave it at 0, the default", () => {
    const { choices } = sizeChoices({ width: 0, height: 0 }, ["256x256"]);
    assert.deepEqual(choices.map((c) => `${formatSize(c.size)} ${c.origin}`), ["the model's own size settings", "256×256 preset"]);
    assert.equal(formatSize({ width: 768, height: 0 }), "768×model's");
  });

  it("leaves out a settings size that cannot be asked for", () => {
    const { choices } = sizeChoices({ width: 500, height: 512 }, ["256x256"]);
    assert.deepEqual(choices, [{ size: { width: 256, height: 256 }, origin: "preset" }]);
  });
});
