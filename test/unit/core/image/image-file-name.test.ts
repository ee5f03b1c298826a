import assert from "node:assert/strict";
import { imageFileName, promptSlug, timeStamp } from "../../../../src/core/image/image-file-name";

describe("image file names", () => {
  const when = new Date(2025, 0, 31, 7, 4, 5);

  it("names the file after the prompt's words and the local time", () => {
    assert.equal(imageFileName("A lighthouse at dusk, oil painting!", when, "png"), "a-lighthouse-at-dusk-oil-painting-20250131-070405.png");
    assert.equal(imageFileName("cat", when, "webp", 2), "cat-20250131-070405-2.webp");
    assert.equal(timeStamp(when), "20250131-070405");
  });

  it("keeps names short, ASCII and safe on every file system", () => {
    assert.equal(promptSlug("Café crème in Zürich"), "cafe-creme-in-zurich");
    assert.equal(promptSlug("../../etc/passwd"), "etc-passwd");
    assert.equal(promptSlug("C:\\Windows\\con: <x> | \"y\" *"), "c-windows-con-x-y");
    const long = promptSlug("a very long prompt about a lighthouse on a cliff at dawn with seagulls and waves");
    assert.ok(long.length <= 48, long);
    assert.equal(long, "a-very-long-prompt-about-a-lighthouse-on-a-cliff");
    assert.equal(promptSlug("x".repeat(80)), "x".repeat(48));
  });

  it("falls back to `image` when the prompt has no letters or digits", () => {
    assert.equal(imageFileName("🌅 … !!!", when, "jpg"), "image-20250131-070405.jpg");
  });
});
