import assert from "node:assert/strict";
import { chunkText } from "../../../../src/core/context/chunker";
import { relevantSnippets } from "../../../../src/core/context/relevant-snippets";
import { shopIndex } from "./workspace-fixture";

describe("relevant snippets", () => {
  it("brings the function a question names from another file, and not the active file", () => {
    const hits = relevantSnippets(shopIndex(), "why does applyDiscount throw?", { activePath: "src/payments/checkout.ts", activeText: "const total = applyDiscount(cart.subtotal(), discountPercent);" });
    assert.equal(hits[0]?.chunk.path, "src/catalog/price.ts");
    assert.match(hits[0]!.chunk.text, /export function applyDiscount/);
    assert.ok(hits.every((h) => h.chunk.path !== "src/payments/checkout.ts"));
  });

  it("an editor on a minified bundle steers the search by each line's start only (its megabyte line took seconds to search at each pause in typing the question)", () => {
    const index = shopIndex();
    index.setFile("vendor/widgets.ts", chunkText("vendor/widgets.ts", "export const zzAlphaWidget = zzBetaGadget(zzGammaThing);\n"));
    const bundle = `${"var a=1;".repeat(150_000)}${"zzAlphaWidget(zzBetaGadget(zzGammaThing));".repeat(50)}`;
    const hits = relevantSnippets(index, "why does applyDiscount throw?", { activePath: "dist/app.min.js", activeText: `// app bundle\n${bundle}\n` });
    assert.equal(hits[0]?.chunk.path, "src/catalog/price.ts");
    assert.ok(hits.every((h) => h.chunk.path !== "vendor/widgets.ts"), "the words at the end of the bundle's line are not searched for");
  });

  it("adds nothing for a question without names", () => {
    assert.deepEqual(relevantSnippets(shopIndex(), "hello?"), []);
    assert.deepEqual(relevantSnippets(shopIndex(), "   "), []);
  });
});
