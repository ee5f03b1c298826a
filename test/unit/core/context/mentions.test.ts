import assert from "node:assert/strict";
import { activeMention, fuzzyScore, rankCandidates } from "../../../../src/core/context/mentions";

describe("mentions", () => {
  it("finds the mention being typed at the caret", () => {
    assert.deepEqual(activeMention("explain @fi", 11), { start: 8, query: "fi" });
    assert.deepEqual(activeMention("@file:src/ca", 12), { start: 0, kind: "file", query: "src/ca" });
    assert.deepEqual(activeMention("look at @", 9), { start: 8, query: "" });
    assert.deepEqual(activeMention("@symbol:", 8), { start: 0, kind: "symbol", query: "" });
  });

  it("ignores an @ inside a word, after the caret moved past a space, or an unknown kind", () => {
    assert.equal(activeMention("mail me@example.com", 19), undefined);
    assert.equal(activeMention("@file done", 10), undefined);
    assert.deepEqual(activeMention("@nope:x", 7), { start: 0, query: "nope:x" });
  });

  it("ranks file names that start with the query first, then word-start matches", () => {
    const files = ["src/scarter.ts", "docs/cart-notes.md", "src/cart/cart.ts", "src/checkout.ts"];
    assert.deepEqual(rankCandidates("cart", files, (f) => f), ["src/cart/cart.ts", "docs/cart-notes.md", "src/scarter.ts"]);
    assert.equal(fuzzyScore("zz", "src/cart.ts"), undefined);
  });

  it("keeps the given order (recent and open first) for an empty query", () => {
    assert.deepEqual(rankCandidates("", ["b", "a", "c"], (x) => x), ["b", "a", "c"]);
  });

  it("finds a file whose name is on disk in the other Unicode form than typed (macOS writes café as e + U+0301)", () => {
    const files = ["docs/cafe\u0301-menu.md", "src/cart.ts"];
    assert.deepEqual(rankCandidates("café", files, (f) => f), ["docs/cafe\u0301-menu.md"]);
    assert.deepEqual(rankCandidates("cafe\u0301", ["docs/café-menu.md"], (f) => f), ["docs/café-menu.md"]);
    assert.equal(fuzzyScore("café", "docs/cafe\u0301-menu.md"), fuzzyScore("café", "docs/café-menu.md"));
  });

  it("scores a name with İ (Turkish dotted capital I, whose lower case is two characters) as the same name with I", () => {
    // Typing `ist` finds İstanbul.ts by its start, ahead of mistake.ts.
    assert.equal(fuzzyScore("ist", "src/İstanbul.ts"), fuzzyScore("ist", "src/Istanbul.ts"));
    assert.deepEqual(rankCandidates("ist", ["src/mistake.ts", "src/İstanbul.ts"], (f) => f), ["src/İstanbul.ts", "src/mistake.ts"]);
    // The C of Cart after the İ still counts as a word start.
    assert.equal(fuzzyScore("c", "src/İstanbulCart.ts"), fuzzyScore("c", "src/IstanbulCart.ts"));
    assert.equal(fuzzyScore("İst", "src/İstanbul.ts"), fuzzyScore("ist", "src/İstanbul.ts"));
  });
});
