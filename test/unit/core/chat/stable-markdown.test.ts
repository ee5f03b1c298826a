import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { codeChunkChars, frozenCodeLength, openCodeBlock, stablePrefixLength } from "../../../../src/core/chat/stable-markdown";

const md = new MarkdownIt({ html: false, linkify: true });

const answers = [
  [
    "Here is the fix:",
    "",
    "```ts",
    "function add(a: number, b: number) {",
    "",
    "  return a + b;",
    "}",
    "```",
    "",
    "It works because:",
    "",
    "1. the types are numbers",
    "",
    "2. nothing overflows",
    "",
    "   still the second item",
    "",
    "- a bullet",
    "- another",
    "",
    "> quoted",
    "",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "",
    "Heading",
    "=======",
    "",
    "    indented code",
    "",
    "    more indented code",
    "",
    "~~~python",
    "print('```')",
    "",
    "~~~",
    "",
    "Done. See https://example.com.",
  ].join("\n"),
  "```\nunclosed fence\n\nstill code\n\nand more",
  "para one\n\npara two\nstill two\n\n\n\npara three",
  "```ts\nconst a = 1;\n```\nRight after the fence.\n```\nmore\n```\n~~~\ntilde\n~~~\n# heading",
  "- step\n\n  ```sh\n  npm i\n  ```\n  then run\n- next\n\n> ```\n> quoted code\n> ```\n> still quoted",
];

describe("stable markdown prefix (streaming render)", () => {
  it("the part before the cut renders the same, whatever arrives after it", () => {
    for (const answer of answers) {
      const whole = md.render(answer);
      let previous = 0;
      for (let n = 0; n <= answer.length; n++) {
        const cut = stablePrefixLength(answer.slice(0, n));
        assert.ok(cut >= previous, `the cut never moves back (${previous} -> ${cut} at ${n})`);
        previous = cut;
        assert.equal(md.render(answer.slice(0, cut)) + md.render(answer.slice(cut)), whole, `cut at ${cut} of ${JSON.stringify(answer.slice(0, n))}`);
      }
    }
  });

  it("cuts at block boundaries outside code fences, and only once the next line has begun", () => {
    assert.equal(stablePrefixLength("one\n\ntwo"), 0, "the last line may still grow");
    assert.equal(stablePrefixLength("one\n\ntwo\n"), 5);
    assert.equal(stablePrefixLength("```\na\n\nb\n"), 0, "inside an open fence");
    assert.equal(stablePrefixLength("```\na\n```\n\nnext\n"), 11);
    assert.equal(stablePrefixLength("- a\n\n- b\n"), 0, "a list item joins the list above");
    assert.equal(stablePrefixLength("- a\n\n  more a\n"), 0, "indented continuation");
  });

  it("moves the cut forward as a long answer streams (so per-frame work stays small)", () => {
    const long = Array.from({ length: 50 }, (_, i) => `Paragraph ${i}.\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`).join("\n");
    const cut = stablePrefixLength(long);
    assert.ok(long.length - cut < 60, `tail of ${long.length - cut} characters`);
  });

  it("finds the top-level code block still being written, with its language", () => {
    assert.deepEqual(openCodeBlock("Here:\n\n```ts title\nconst a"), { fenceStart: 7, codeStart: 19, language: "ts" });
    assert.equal(openCodeBlock("```ts\nconst a = 1;\n```\n"), undefined, "closed");
    assert.equal(openCodeBlock("Here:\n```ts"), undefined, "the fence line is not complete yet");
    assert.equal(openCodeBlock("- item\n  ```\n  code\n"), undefined, "inside a list item it is the list's");
    assert.deepEqual(openCodeBlock("```md\n```ts\n"), { fenceStart: 0, codeStart: 6, language: "md" }, "a fence inside a fence is code");
  });

  it("a long code block streaming in is highlighted a chunk at a time, not whole on every frame", () => {
    const code = Array.from({ length: 1500 }, (_, i) => `  const value${i} = compute(items[${i}], { weight: ${i} });`).join("\n");
    let frozen = 0;
    let most = 0;
    // About 4 tokens of 4 characters arrive per frame (250 tokens/s at 60 frames/s).
    for (let n = 16; n < code.length + 16; n += 16) {
      const shown = code.slice(0, n);
      const next = frozenCodeLength(shown, frozen);
      // Per frame: the chunk frozen now (once), and the open rest.
      most = Math.max(most, shown.length - frozen);
      assert.ok(next >= frozen && (next === frozen || shown[next - 1] === "\n"), "whole lines, never moving back");
      frozen = next;
    }
    assert.ok(most < 2 * codeChunkChars + 100, `at most ${most} characters highlighted in one frame, of ${code.length}`);
  });
});
