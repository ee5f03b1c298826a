import assert from "node:assert/strict";
import { promptFromEditor, type EditorText } from "../../../../src/core/image/prompt-from-editor";
import { wellFormed } from "../../../harness/well-formed";

/** `|` marks the cursor's line in `text`; it is removed. */
function at(languageId: string, text: string, selection = ""): EditorText {
  const lines = text.split("\n");
  const cursorLine = lines.findIndex((line) => line.includes("|"));
  return { text: text.replace("|", ""), cursorLine, selection, languageId };
}

describe("the prompt suggested by the editor", () => {
  it("takes the selection, with whitespace tidied", () => {
    assert.equal(promptFromEditor(at("plaintext", "|x", "  a red\n  lighthouse  ")), "a red lighthouse");
  });

  it("takes a selected comment without its markers", () => {
    assert.equal(promptFromEditor(at("typescript", "|", "// a red\n// lighthouse")), "a red lighthouse");
    assert.equal(promptFromEditor(at("python", "|", "# a cat\n\n#  on a mat")), "a cat on a mat");
    assert.equal(promptFromEditor(at("typescript", "|", "/**\n * a cat\n * on a mat\n */")), "a cat on a mat");
  });

  it("takes the run of line comments under the cursor", () => {
    const text = "const a = 1;\n// header image:\n// a lighthouse| at dusk,\n//   oil painting\nconst b = 2;\n// other";
    assert.equal(promptFromEditor(at("typescript", text)), "header image: a lighthouse at dusk, oil painting");
    assert.equal(promptFromEditor(at("rust", "/// a doc comment|\nfn x() {}")), "a doc comment");
    assert.equal(promptFromEditor(at("python", "x = 1\n    ## a green| forest\ny = 2")), "a green forest");
  });

  it("takes the block comment the cursor is in, without doc-comment stars", () => {
    const text = "/**\n * A hero image:\n * mountains| at sunrise\n */\nexport const x = 1;";
    assert.equal(promptFromEditor(at("typescript", text)), "A hero image: mountains at sunrise");
    assert.equal(promptFromEditor(at("html", "<p>x</p>\n<!-- a banner| with waves -->\n<p>y</p>")), "a banner with waves");
    assert.equal(promptFromEditor(at("python", 'def f():\n    """\n    a robot| reading\n    """\n    pass')), "a robot reading");
  });

  it("does not take a block comment that closed before the cursor's line", () => {
    assert.equal(promptFromEditor(at("typescript", "/* old */\nconst| x = 1;")), undefined);
    assert.equal(promptFromEditor(at("python", '"""doc"""\nx = 1|\n"""other"""')), undefined);
  });

  it("takes a comment at the end of the cursor's code line", () => {
    assert.equal(promptFromEditor(at("typescript", "const sky = load(); // a red| sky")), "a red sky");
    assert.equal(promptFromEditor(at("typescript", 'const url = "http://example.com";|')), undefined);
  });

  it("suggests nothing on code, blank lines, or languages without known comments", () => {
    assert.equal(promptFromEditor(at("typescript", "const x = 1;|")), undefined);
    assert.equal(promptFromEditor(at("typescript", "// \n|\n// x")), undefined);
    assert.equal(promptFromEditor(at("plaintext", "# not a comment here|")), undefined);
    assert.equal(promptFromEditor(at("typescript", "//   |")), undefined);
  });

  it("keeps a very long comment to 1000 characters", () => {
    const prompt = promptFromEditor(at("typescript", `// ${"word ".repeat(400)}|`));
    assert.ok(prompt !== undefined && prompt.length <= 1000 && prompt.length > 990, String(prompt?.length));
    assert.match(prompt, /^(word )+word$/);
  });

  it("cuts a long comment at 1000 characters without leaving half of an emoji", () => {
    const prompt = promptFromEditor(at("typescript", `// ${"x".repeat(999)}🌅 and more|`))!;
    assert.ok(wellFormed(prompt), JSON.stringify(prompt.slice(-3)));
    assert.equal(prompt, "x".repeat(999));
  });
});
