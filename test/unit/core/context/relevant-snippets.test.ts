import assert from "node:assert/strict";
import { relevantSnippets } from "../../../../src/core/context/relevant-snippets";
import { shopIndex } from "./workspace-fixture";

describe("relevant snippets", () => {
  it("brings the function a question names from another file, and not the active file", () => {
    const hits = relevantSnippets(shopIndex(), "why does applyDiscount throw?", { activePath: "src/payments/checkout.ts", activeText: "const total = applyDiscount(cart.subtotal(), discountPercent);" });
    assert.equal(hits[0]?.chunk.path, "src/catalog/price.ts");
    assert.match(hits[0]!.chunk.text, /export function applyDiscount/);
    assert.ok(hits.every((h) => h.chunk.path !== "src/payments/checkout.ts"));
  });

  it("adds nothing for a question without names", () => {
    assert.deepEqual(relevantSnippets(shopIndex(), "hello?"), []);
    assert.deepEqual(relevantSnippets(shopIndex(), "   "), []);
  });
});
