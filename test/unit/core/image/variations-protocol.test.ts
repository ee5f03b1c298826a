import assert from "node:assert/strict";
import { parseFromVariationsView, parseToVariationsView } from "../../../../src/core/image/variations-protocol";

describe("the variations preview's messages", () => {
  it("accepts only ready and save with a whole, non-negative index from the webview", () => {
    assert.deepEqual(parseFromVariationsView({ type: "ready" }), { type: "ready" });
    assert.deepEqual(parseFromVariationsView({ type: "save", index: 2 }), { type: "save", index: 2 });
    for (const bad of [null, "save", { type: "save" }, { type: "save", index: -1 }, { type: "save", index: 1.5 }, { type: "delete", index: 0 }]) {
      assert.equal(parseFromVariationsView(bad), undefined, JSON.stringify(bad));
    }
  });

  it("lets only base64 image data URIs through to the page", () => {
    const image = { index: 0, seed: 7, src: "data:image/png;base64,iVBORw0KGgo=" };
    assert.deepEqual(parseToVariationsView({ type: "show", prompt: "p", details: "d", images: [image] }), { type: "show", prompt: "p", details: "d", images: [image] });
    for (const src of ["javascript:alert(1)", "https://example.com/x.png", "data:text/html;base64,PGI+", 'data:image/png;base64,x" onerror="1']) {
      assert.equal(parseToVariationsView({ type: "show", prompt: "p", details: "d", images: [{ ...image, src }] }), undefined, src);
    }
  });

  it("passes saved and failed notes", () => {
    assert.deepEqual(parseToVariationsView({ type: "saved", index: 1, label: "images/a.png" }), { type: "saved", index: 1, label: "images/a.png" });
    assert.deepEqual(parseToVariationsView({ type: "failed", index: 1, message: "disk full" }), { type: "failed", index: 1, message: "disk full" });
    assert.equal(parseToVariationsView({ type: "saved", index: 1 }), undefined);
  });
});
