import assert from "node:assert/strict";
import { closingTag, openElements } from "../../../src/server/engines/text/closing-tag";
import { fileLines, lineCandidates } from "../../../src/server/engines/text/line-candidates";

// A TSX form as such files are written: attributes over several lines, arrow functions and
// comparisons inside `{…}`, a self-closing element, an element closed in the text.
const form = [
  "export function Signup({ errors }: Props) {",
  "  const [open, setOpen] = useState<boolean>(false);",
  "  return (",
  "    <FormControl isInvalid={!!errors.password} mt={4}>",
  '      <FormLabel htmlFor="password">Password</FormLabel>',
  "      <Input",
  '        id="password"',
  "        onChange={(e) => e.target.value.length > 8 && setOpen(true)}",
  '        placeholder="a > b"',
  "      />",
  "      {errors.password && (",
  "        <FormErrorMessage>",
  "          {errors.password.message}",
].join("\n");

describe("closingTag: the closing tag a markup line asks for", () => {
  it("after `</`, closes the innermost element still open, whatever the copies offer", () => {
    assert.deepEqual(closingTag(`${form}\n        </`), { text: "FormErrorMessage>", certain: true });
    assert.deepEqual(closingTag(`${form}\n        </Form`), { text: "ErrorMessage>", certain: true });
    assert.deepEqual(fileLines(`${form}\n        </Form`, "\n      )}\n").lines, ["ErrorMessage>"], "the only line, though FormLabel> is a copy");
  });

  it("after a bare `<` at the line's start or after `>` or `}`, offers it first among the copies", () => {
    assert.deepEqual(closingTag(`${form}\n        <`), { text: "/FormErrorMessage>", certain: false });
    assert.deepEqual(closingTag("<Box>{listItems}<"), { text: "/Box>", certain: false });
    const lines = fileLines(`${form}\n        </FormErrorMessage>\n      )}\n    <`, "\n  );\n}").lines;
    assert.equal(lines[0], "/FormControl>");
    assert.ok(lines.length > 1, "the copies stay beside it");
  });

  it("asks nothing where `<` opens a type's arguments, a comparison or an element in an expression", () => {
    assert.equal(closingTag(`${form}\n  body: FormControl<`), undefined);
    assert.equal(closingTag(`${form}\n  if (a <`), undefined);
    assert.equal(closingTag(`${form}\n  icon={<`), undefined);
    assert.equal(closingTag(`${form}\n  <p>Time: <`), undefined, "after text, `<` more often opens an element");
    assert.equal(closingTag(`${form}\n        <Fo`), undefined, "a name being typed opens one");
  });

  it("asks nothing when the name typed is not the open element's, or nothing is open", () => {
    assert.equal(closingTag(`${form}\n        </Inp`), undefined);
    assert.equal(closingTag("const a = 1;\n</"), undefined);
  });

  it("what the line has after the cursor ends the tag and comes off it; a tag already closed is no line", () => {
    assert.deepEqual(fileLines(`${form}\n        </`, ">\n").lines, ["FormErrorMessage"]);
    const closed = `${form}\n        </`;
    assert.deepEqual(fileLines(closed, "FormErrorMessage>\n").lines, lineCandidates(closed, "FormErrorMessage>\n"), "the copies only");
  });
});

describe("openElements: the elements a prefix leaves open", () => {
  it("reads HTML templates: void elements and self-closing tags open nothing, a closing tag closes what its element left open", () => {
    const html = '<div class="card">\n  <img src="a.png">\n  <br/>\n  <ul>\n    <li><a href="/">Home</a>\n  </ul>\n  <p>';
    assert.deepEqual(openElements(html), ["div", "p"]);
  });

  it("skips quoted values and expressions that hold `>`, and type arguments", () => {
    assert.deepEqual(openElements(form), ["FormControl", "FormErrorMessage"]);
    assert.deepEqual(openElements("const m = new Map<string, Array<number>>();\n<Panel title={`a ${x > 1 ? '<b>' : ''}`}>"), ["Panel"]);
  });

  it("keeps fragments and member names: `</` closes `<>`, `</Dialog.` goes on to `Portal>`", () => {
    assert.deepEqual(openElements("<>\n  <Dialog.Portal>\n"), ["", "Dialog.Portal"]);
    assert.deepEqual(closingTag("<>\n  <Dialog.Portal>\n  </Dialog.Portal>\n</"), { text: ">", certain: true });
    assert.deepEqual(closingTag("<>\n  <Dialog.Portal>\n    </Dialog."), { text: "Portal>", certain: true });
  });
});
