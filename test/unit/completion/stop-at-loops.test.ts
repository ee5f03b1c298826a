import assert from "node:assert/strict";
import { loopCut, stopAtLoops } from "../../../src/core/completion/filters";

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  yield* parts;
}

async function collect(source: AsyncIterable<string>): Promise<{ text: string }> {
  let text = "";
  for await (const piece of source) text += piece;
  return { text };
}

describe("stopping at loops", () => {
  it("finds a short unit repeated in a row and cuts at the end of a word in its first occurrence", () => {
    assert.equal(loopCut("import_get_get_get_get"), "import".length);
    assert.equal(loopCut("return self.self.self.self.self"), "return self".length);
    assert.equal(loopCut("xxxxxxxxxxxxxxxx"), 1);
    assert.equal(loopCut(`new Date(${"1, ".repeat(14)}1`), "new Date(1".length, "a dozen repeats of a number");
  });

  it("leaves code that repeats on purpose, or not enough to be a loop", () => {
    for (const line of ["const zeros = [0, 0, 0, 0, 0, 0, 0, 0];", `const identity = [${"1, 0, 0, 0, 0, ".repeat(3)}1];`, "# ----------------------", "foo(bar, bar, bar)", "aaaa", "for (let i = 0; i < n; i++) {"]) {
      assert.equal(loopCut(line), undefined, line);
    }
  });

  it("ends the stream at the loop, even when it arrives in pieces, and stops pulling from the model", async () => {
    let pulled = 0;
    async function* model(): AsyncGenerator<string> {
      for (const piece of ["import", "_get", "_get", "_get", "_get", "_get", "_get", "\nmore"]) {
        pulled++;
        yield piece;
      }
    }
    const { text } = await collect(stopAtLoops(model()));
    assert.equal(text, "import");
    assert.equal(pulled, 5, "the model was stopped once the fourth unit arrived");
  });

  it("passes other text through unchanged, lines and all", async () => {
    const text = "def total(values):\n    return sum(v for v in values)\n" + "x = 1".padEnd(120, " ") + "\nend";
    assert.equal((await collect(stopAtLoops(chunks(...text.match(/.{1,7}/gs)!)))).text, text);
  });

  it("cuts a loop on a later line and keeps the lines before it", async () => {
    assert.equal((await collect(stopAtLoops(chunks("a = 1\n", "b = get", "_get_get_get_get")))).text, "a = 1\nb = get");
  });
});
