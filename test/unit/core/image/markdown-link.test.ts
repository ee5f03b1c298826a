import assert from "node:assert/strict";
import { markdownImage, markdownImageLink, relativePath } from "../../../../src/core/image/markdown-link";
import { wellFormed } from "../../../harness/well-formed";

describe("markdown image links", () => {
  it("links relative to the document's folder", () => {
    assert.equal(markdownImageLink("a cat", "/ws/docs/readme.md", "/ws/images/cat.png"), "![a cat](../images/cat.png)");
    assert.equal(markdownImageLink("a cat", "/ws/README.md", "/ws/images/cat.png"), "![a cat](images/cat.png)");
    assert.equal(markdownImageLink("a cat", "/ws/images/notes.md", "/ws/images/cat.png"), "![a cat](cat.png)");
  });

  it("encodes what would break the link and escapes brackets in the alt text", () => {
    assert.equal(
      markdownImageLink("a [red] cat\nat night", "/ws/my notes/a.md", "/ws/my images/cat (1).png"),
      "![a \\[red\\] cat at night](../my%20images/cat%20%281%29.png)",
    );
  });

  it("cuts a long prompt in the alt text", () => {
    const link = markdownImageLink("x".repeat(300), "/a.md", "/b.png");
    assert.equal(link, `![${"x".repeat(100)}](b.png)`);
  });

  it("computes relative paths, and keeps the full path across drive letters", () => {
    assert.equal(relativePath("/a/b", "/a/c/d.png"), "../c/d.png");
    assert.equal(relativePath("/", "/x.png"), "x.png");
    assert.equal(relativePath("/c:/work", "/d:/pics/x.png"), "/d:/pics/x.png");
  });

  it("links to a full URI as given when the image is elsewhere", () => {
    assert.equal(markdownImage("a [cat]", "vscode-remote://ssh/home/x.png"), "![a \\[cat\\]](vscode-remote://ssh/home/x.png)");
  });

  it("cuts a long prompt's alt text without writing half of an emoji into the document (shown as �)", () => {
    const prompt = `${"a".repeat(99)}🌅 over the sea`;
    const link = markdownImage(prompt, "sunset.png");
    assert.ok(wellFormed(link), JSON.stringify(link));
    assert.equal(link, `![${"a".repeat(99)}](sunset.png)`);
  });

  it("encodes a no-break space in a folder's name as its UTF-8 bytes, which a Markdown preview decodes back (its code alone, %A0, is no character)", () => {
    const link = markdownImageLink("a cat", "/ws/README.md", "/ws/my\u00a0images/cat.png");
    assert.equal(link, "![a cat](my%C2%A0images/cat.png)");
    assert.equal(decodeURIComponent(link.slice("![a cat](".length, -1)), "my\u00a0images/cat.png");
  });
});
