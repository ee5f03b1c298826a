import assert from "node:assert/strict";
import { byteLevelSpelling, tokensStartingWith } from "../../../src/server/engines/text/token-texts";

// Token healing lets through only the tokens whose text starts with the healed text: found by a
// binary search over the vocabulary sorted by text, not a scan of every token.
describe("tokensStartingWith: the tokens healing lets through", () => {
  const texts = ["ret", " return", "re", "r", "return", "(", "rett", "res", "", "retu", "Re", "\ufffd"];
  const order = Int32Array.from(texts.keys()).sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
  const scan = (text: string) => texts.flatMap((t, i) => (t.startsWith(text) ? [i] : [])).sort((a, b) => a - b);
  const found = (text: string) => tokensStartingWith(texts, order, text).sort((a, b) => a - b);

  it("finds every token that starts with the text, and only those", () => {
    for (const text of ["ret", "re", "r", "retu", "return", " ", "(", "R", "Re", "\ufffd"]) assert.deepEqual(found(text), scan(text), JSON.stringify(text));
  });

  it("finds none where no token fits, at either end of the order", () => {
    assert.deepEqual(found("x"), []);
    assert.deepEqual(found("\u0000"), []);
    assert.deepEqual(found("\uffff"), []);
  });
});

// A byte-level vocabulary (GGUF tokenizer "gpt2") stores each token spelled one character per byte.
describe("byteLevelSpelling: a text as a byte-level vocabulary stores it", () => {
  it("keeps printable ASCII and maps space, line break and tab as GPT-2's table does", () => {
    assert.equal(byteLevelSpelling(" return x;\n"), "\u0120return\u0120x;\u010a");
    assert.equal(byteLevelSpelling("\tif"), "\u0109if");
  });

  it("spells a character of several bytes byte by byte", () => {
    assert.equal(byteLevelSpelling("é"), "\u00c3\u00a9");
    assert.equal(byteLevelSpelling("—"), "\u00e2\u0122\u0136");
  });
});
