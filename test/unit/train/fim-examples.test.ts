import assert from "node:assert/strict";
import { fimCut } from "../../../scripts/train/fim-examples";
import { seededPick } from "../../../scripts/train/seeded-pick";
import { looksHandWritten, permissiveLicense } from "../../../scripts/train/corpus-files";

const source = Array.from({ length: 40 }, (_, i) => `  const value${i} = compute(${i}, "item ${i}");`).join("\n");

describe("training cuts and corpus rules", () => {
  it("every cut puts the file back together, and the middle is what the editor would ask for", () => {
    const pick = seededPick(5);
    let cuts = 0;
    const kinds = { restOfLine: 0, lines: 0, nothing: 0 };
    for (let i = 0; i < 400; i++) {
      const cut = fimCut(source, pick);
      if (!cut) continue;
      cuts++;
      assert.ok(source.includes(cut.prefix + cut.middle + cut.suffix), "prefix + middle + suffix is the text");
      if (cut.middle === "") kinds.nothing++;
      else if (cut.middle.includes("\n")) kinds.lines++;
      else kinds.restOfLine++;
    }
    assert.ok(cuts > 300);
    assert.ok(kinds.restOfLine > kinds.lines && kinds.lines > kinds.nothing && kinds.nothing > 0, JSON.stringify(kinds));
  });

  it("is the same for the same seed", () => {
    const a = seededPick(9);
    const b = seededPick(9);
    for (let i = 0; i < 20; i++) assert.deepEqual(fimCut(source, a), fimCut(source, b));
  });

  it("takes permissive licences only, every alternative of an expression", () => {
    for (const ok of ["MIT", "ISC", "Apache-2.0", "BSD-3-Clause", "(MIT OR Apache-2.0)", "0BSD"]) assert.ok(permissiveLicense(ok), ok);
    for (const no of ["GPL-3.0", "MIT OR GPL-2.0", "UNLICENSED", "", "SEE LICENSE IN LICENSE.md"]) assert.ok(!permissiveLicense(no), no);
  });

  it("leaves out minified and generated text", () => {
    assert.ok(looksHandWritten(source));
    assert.ok(!looksHandWritten(`var a=${"x".repeat(600)};`));
    assert.ok(!looksHandWritten(`${source}\n//# sourceMappingURL=data:application/json;base64,abc`));
  });
});
