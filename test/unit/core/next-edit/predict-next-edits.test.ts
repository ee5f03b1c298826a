import assert from "node:assert/strict";
import { EditHistory } from "../../../../src/core/next-edit/edit-history";
import { nextEditFrom, onlyInserts, predictNextEdits } from "../../../../src/core/next-edit/predict-next-edits";

const uri = "file:///fixture.ts";

interface Fixture {
  readonly name: string;
  /** The file, the user's edit written «old→new» (typed one key at a time after deleting `old`). */
  readonly file: string;
  /** The file once every suggestion is accepted, Tab after Tab. */
  readonly expected: string;
}

const fixtures: Fixture[] = [
  {
    name: "a local renamed on its declaration: its uses in that function only",
    file: "function a() {\n  let «count→total» = 0;\n  if (count > 1) count++;\n  return count;\n}\nfunction b() {\n  return count;\n}\n",
    expected: "function a() {\n  let total = 0;\n  if (total > 1) total++;\n  return total;\n}\nfunction b() {\n  return count;\n}\n",
  },
  {
    name: "a local renamed at a use: the declaration and the other uses in the declaring block",
    file: "function a() {\n  const items = [];\n  if (ok) {\n    «items→rows».push(1);\n  }\n  return items.length;\n}\nconst items = 2;\n",
    expected: "function a() {\n  const rows = [];\n  if (ok) {\n    rows.push(1);\n  }\n  return rows.length;\n}\nconst items = 2;\n",
  },
  {
    name: "a parameter renamed: its uses in that function's body, not a member of the same name",
    file: "function area(«w→width»: number, h: number) {\n  return w * h + box.w;\n}\nconst w = 3;\n",
    expected: "function area(width: number, h: number) {\n  return width * h + box.w;\n}\nconst w = 3;\n",
  },
  {
    name: "a field renamed on its declaration: this.field in its class",
    file: "class Counter {\n  private «n→value» = 0;\n  bump() { this.n++; }\n  get() { return this.n; }\n}\n",
    expected: "class Counter {\n  private value = 0;\n  bump() { this.value++; }\n  get() { return this.value; }\n}\n",
  },
  {
    name: "a field renamed at a use: its declaration and the other this.field uses",
    file: "class A {\n  size = 1;\n  grow() { this.«size→length» += 1; }\n  show() { return this.size; }\n}\n",
    expected: "class A {\n  length = 1;\n  grow() { this.length += 1; }\n  show() { return this.length; }\n}\n",
  },
  {
    name: "a repeated call change: the other calls with the same old text",
    file: "foo(a«→, b»);\nconst x = foo(a) + foo(c);\nfoo(a);\n",
    expected: "foo(a, b);\nconst x = foo(a, b) + foo(c);\nfoo(a, b);\n",
  },
  {
    name: "strings and comments keep the old name",
    file: "let «name→label» = 'x';\n// name is shown\nconsole.log(\"name\", name);\n",
    expected: "let label = 'x';\n// name is shown\nconsole.log(\"name\", label);\n",
  },
  {
    name: "an edit inside a string changes the same text in other strings, not in code",
    file: "say('«hello→hi» world');\nsay('hello world');\nhello();\n",
    expected: "say('hi world');\nsay('hi world');\nhello();\n",
  },
  {
    name: "a new name typed where none was: nothing to propose",
    file: "let a = 1;\nlet «→b» = 2;\nlet a2 = a;\n",
    expected: "let a = 1;\nlet b = 2;\nlet a2 = a;\n",
  },
  {
    name: "a name deleted: nothing, and the user's typing is never undone",
    file: "let «old→» = 1;\nold++;\n",
    expected: "let  = 1;\nold++;\n",
  },
  {
    name: "a wrapping change never reaches into what the user typed, and stops",
    file: "y = «f(x)→f(f(x))»;\nz = f(x);\n",
    expected: "y = f(f(x));\nz = f(f(x));\n",
  },
  {
    name: "a change that repeats the old text: the user's copy and the changed places are done",
    file: "y = «g(x)→g(x) + g(x)»;\nz = g(x);\n",
    expected: "y = g(x) + g(x);\nz = g(x) + g(x);\n",
  },
  {
    name: "a change that holds the old text stops once every place has it",
    file: "x = f(«y→y + 1»);\nz = f(y);\n",
    expected: "x = f(y + 1);\nz = f(y + 1);\n",
  },
  {
    name: "a template literal's ${…} is code: the name in it is renamed, the literal's text is not",
    file: "function f() {\n  let «count→total» = 0;\n  return `count: ${count} of ${`${count}`}`;\n}\n",
    expected: "function f() {\n  let total = 0;\n  return `count: ${total} of ${`${total}`}`;\n}\n",
  },
  {
    name: "a property name is not the local: object keys stay, a shorthand keeps its key",
    file: "function f() {\n  let «count→total» = 0;\n  const o = { count: 1, n: count };\n  return { count, o };\n}\n",
    expected: "function f() {\n  let total = 0;\n  const o = { count: 1, n: total };\n  return { count: total, o };\n}\n",
  },
  {
    name: "an imported or exported name keeps the name it has outside the file",
    file: "import { count } from './c';\nexport { count };\nconst a = «count→total» + 1;\n",
    expected: "import { count as total } from './c';\nexport { total as count };\nconst a = total + 1;\n",
  },
  {
    name: "a class field's initialiser uses the local: renamed there, the field of the same name is not",
    file: "function make() {\n  const «base→start» = 1;\n  return class extends Model {\n    base = base + 1;\n    static step =\n      base * 2;\n    [base] = 0;\n    next = 2\n    base\n    @Input() base?: number;\n    private readonly base2 = base;\n  };\n}\n",
    expected: "function make() {\n  const start = 1;\n  return class extends Model {\n    base = start + 1;\n    static step =\n      start * 2;\n    [start] = 0;\n    next = 2\n    base\n    @Input() base?: number;\n    private readonly base2 = start;\n  };\n}\n",
  },
];

/** Replays the fixture's edit like the user typed it and returns the history, the text and the cursor. */
function typed(file: string): { history: EditHistory; cursor: number } {
  const m = /«(.*?)→(.*?)»/s.exec(file)!;
  const history = new EditHistory();
  history.open(uri, file.slice(0, m.index) + m[1] + file.slice(m.index + m[0].length));
  if (m[1]!.length > 0) history.change(uri, [{ offset: m.index, length: m[1]!.length, text: "" }]);
  [...m[2]!].forEach((ch, i) => history.change(uri, [{ offset: m.index + i, length: 0, text: ch }]));
  return { history, cursor: m.index + m[2]!.length };
}

describe("predictNextEdits (fixture table)", () => {
  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const { history, cursor } = typed(fixture.file);
      let at = cursor;
      for (let step = 0; ; step++) {
        assert.ok(step < 20, "the suggestions never stop");
        const text = history.text(uri)!;
        const next = nextEditFrom(predictNextEdits(text, history.last(uri)!), at);
        if (next === undefined) break;
        assert.equal(text.slice(next.offset, next.offset + next.oldText.length), next.oldText);
        history.change(uri, [{ offset: next.offset, length: next.oldText.length, text: next.newText }], true);
        at = next.offset + next.newText.length;
      }
      assert.equal(history.text(uri), fixture.expected);
      // What the user typed is still there, untouched.
      const hunk = history.last(uri);
      if (hunk) assert.equal(history.text(uri)!.slice(hunk.offset, hunk.offset + hunk.newText.length), hunk.newText);
    });
  }

  it("the next suggestion is the first after the cursor, wrapping to the top", () => {
    const edits = [10, 20, 30].map((offset) => ({ offset, oldText: "a", newText: "b" }));
    assert.equal(nextEditFrom(edits, 15)?.offset, 20);
    assert.equal(nextEditFrom(edits, 31)?.offset, 10);
    assert.equal(nextEditFrom([], 0), undefined);
  });
});

describe("onlyInserts", () => {
  it("tells insertions (ghost text) from replacements (decorations)", () => {
    const edit = (oldText: string, newText: string) => ({ offset: 0, oldText, newText });
    assert.equal(onlyInserts(edit("foo(a)", "foo(a, b)")), true);
    assert.equal(onlyInserts(edit("count", "counter")), true);
    assert.equal(onlyInserts(edit("count", "total")), false);
    assert.equal(onlyInserts(edit("abc", "ab")), false);
  });
});
