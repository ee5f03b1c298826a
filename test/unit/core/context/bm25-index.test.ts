import assert from "node:assert/strict";
import { Bm25Index } from "../../../../src/core/context/bm25-index";
import { chunkText } from "../../../../src/core/context/chunker";
import { shopIndex } from "./workspace-fixture";

/** Questions a user of the fixture shop would ask, with the file that answers each. */
const questions: readonly [string, string][] = [
  ["why does checkout fail when the payment is declined?", "src/payments/checkout.ts"],
  ["where is the price rounded?", "src/catalog/price.ts"],
  ["how is a password hashed and verified?", "src/users/password.js"],
  ["how long does a login session last before it expires?", "src/users/session.js"],
  ["what does shipping cost for a heavy parcel to Germany?", "server/shipping.py"],
  ["how do I add a product to the cart twice?", "src/cart/cart.ts"],
  ["does chargeCard retry when the gateway times out?", "src/payments/gateway.ts"],
  ["what happens to reserved stock when a payment fails?", "src/payments/inventory.ts"],
  ["how are products ranked when searching by tag?", "src/catalog/search.ts"],
  ["which email is sent for an order confirmation?", "server/emails.py"],
];

describe("workspace index (BM25 over chunks)", () => {
  it("finds the file that answers a question in its top 3 for at least 9 of 10 questions", () => {
    const index = shopIndex();
    const misses = questions.filter(([question, file]) => !index.search(question, { limit: 3, perFile: 1 }).some((h) => h.chunk.path === file));
    assert.ok(misses.length <= 1, `missed: ${misses.map(([q]) => q).join(" | ")}`);
  });

  it("ranks the chunk that defines a name above chunks that only use it", () => {
    const index = shopIndex();
    const [best] = index.search("roundPrice");
    assert.equal(best?.chunk.path, "src/catalog/price.ts");
    assert.match(best!.chunk.text, /export function roundPrice/);
  });

  it("replaces a file's chunks when it changes and forgets removed files", () => {
    const index = new Bm25Index();
    index.setFile("a.ts", chunkText("a.ts", "export function alphaWidget() {}\n"));
    index.setFile("b.ts", chunkText("b.ts", "export function other() {}\n"));
    index.setFile("a.ts", chunkText("a.ts", "export function bravoGadget() {}\n"));
    assert.deepEqual(index.search("alphaWidget"), []);
    assert.equal(index.search("bravoGadget")[0]?.chunk.path, "a.ts");
    index.removeFile("a.ts");
    assert.deepEqual(index.search("bravoGadget"), []);
    assert.equal(index.fileCount, 1);
    assert.equal(index.chunkCount, 1);
  });

  it("leaves out excluded paths and keeps at most perFile hits per file", () => {
    const index = shopIndex();
    const hits = index.search("price cart product stock", { limit: 10, perFile: 1, exclude: new Set(["src/cart/cart.ts"]) });
    const paths = hits.map((h) => h.chunk.path);
    assert.ok(!paths.includes("src/cart/cart.ts"));
    assert.equal(new Set(paths).size, paths.length);
  });

  it("answers nothing for a query of stop words only", () => {
    assert.deepEqual(shopIndex().search("how does this work?"), []);
  });

  it("a question in Russian or German finds the code whose comments and names use its words", () => {
    const index = shopIndex();
    index.setFile("src/cart/discount.ts", chunkText("src/cart/discount.ts", "// Скидка для постоянных клиентов: 10% от суммы заказа.\nexport function loyaltyDiscount(total: number) {\n  return total * 0.1;\n}\n"));
    index.setFile("src/cart/size.ts", chunkText("src/cart/size.ts", "// Größe des Pakets in Zentimetern, für den Versand.\nexport const parcelSize = (w: number, h: number) => w * h;\n"));
    assert.equal(index.search("где считается скидка для клиентов?", { limit: 1 })[0]?.chunk.path, "src/cart/discount.ts");
    assert.equal(index.search("Wie wird die Größe des Pakets berechnet?", { limit: 1 })[0]?.chunk.path, "src/cart/size.ts");
  });
});
