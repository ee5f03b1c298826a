import assert from "node:assert/strict";
import { answerFor, chatExample, pythonFunctions, scriptFunctions, thirdPerson } from "../../../scripts/train/chat-pairs";
import type { CorpusFile } from "../../../scripts/train/corpus-files";

const python = `import os


def join_paths(base, name, *rest):
    """Return the path of name under base.

    Long explanation that is not part of the summary.
    """
    return os.path.join(base, name, *rest)


def _private(x):
    """Hidden helper that should not be used."""
    return x
`;

const typescript = `/**
 * Parses a size written as WIDTHxHEIGHT into numbers.
 * @param text - the size, e.g. "768x512"
 * @returns the width and height
 */
export function parseSize(text: string): { width: number; height: number } {
  const [w, h] = text.split("x");
  return { width: Number(w), height: Number(h) };
}
`;

describe("chat examples from documented functions", () => {
  it("finds Python functions with a docstring, their summary, parameters and body; skips private ones", () => {
    const [fn, ...rest] = pythonFunctions(python);
    assert.equal(rest.length, 0);
    assert.equal(fn!.name, "join_paths");
    assert.deepEqual(fn!.params, ["base", "name", "rest"]);
    assert.equal(fn!.summary, "Return the path of name under base.");
    assert.equal(fn!.startLine, 4);
    assert.ok(fn!.code.startsWith("def join_paths(") && fn!.code.endsWith("return os.path.join(base, name, *rest)"));
  });

  it("finds JSDoc'd TypeScript functions with @param and @returns, the body by its braces", () => {
    const [fn] = scriptFunctions(typescript);
    assert.equal(fn!.name, "parseSize");
    assert.equal(fn!.summary, "Parses a size written as WIDTHxHEIGHT into numbers.");
    assert.deepEqual(fn!.paramDocs, [{ name: "text", text: 'the size, e.g. "768x512"' }]);
    assert.equal(fn!.returns, "the width and height");
    assert.ok(fn!.code.endsWith("return { width: Number(w), height: Number(h) };\n}"));
  });

  it("answers in sentences: imperative summaries become third person", () => {
    assert.equal(thirdPerson("Return the sum."), "returns the sum.");
    assert.equal(thirdPerson("Match a pattern"), "matches a pattern");
    assert.equal(thirdPerson("Copy the file"), "copies the file");
    const fn = { name: "join_paths", params: ["base", "name", "rest"], summary: "Return the path of name under base.", paramDocs: [], code: "", startLine: 1, endLine: 2 };
    assert.equal(answerFor(fn, 0), "`join_paths` returns the path of name under base.\n\nIt takes `base`, `name` and `rest`.");
    assert.equal(answerFor({ ...fn, returns: "The joined path" }, 0), "`join_paths` returns the path of name under base.\n\nIt takes `base`, `name` and `rest`.\n\nIt returns the joined path.");
  });

  it("asks the way the chat panel does: the question, then the code with its file, lines and language", () => {
    const file = { path: "node_modules/pkg/src/size.ts", language: "typescript" } as CorpusFile;
    const [fn] = scriptFunctions(typescript);
    let n = 0;
    const example = chatExample(file, fn!, (k) => n++ % k);
    const user = example.messages.find((m) => m.role === "user")!.content;
    assert.match(user, /\n\nsrc\/size\.ts, lines 6-9 \(typescript\):\n```typescript\nexport function parseSize/);
    assert.equal(example.messages.at(-1)!.role, "assistant");
    assert.match(example.messages.at(-1)!.content, /Parses a size written as WIDTHxHEIGHT into numbers\./);
  });
});
