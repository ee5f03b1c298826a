import assert from "node:assert/strict";
import { instructionsFor, instructionsLinkedBy, parseScopedInstructions, type ScopedInstructions } from "../../../../src/core/customization/scoped-instructions";
import { taskCustomization } from "../../../../src/core/customization/task-customization";

const two = ["alpha", "beta"];
const file = (source: string, applyTo: string, folder?: number): ScopedInstructions => ({ ...parseScopedInstructions(source, `---\napplyTo: '${applyTo}'\n---\n${source} rules.`), ...(folder !== undefined ? { folder } : {}) });
const sources = (files: readonly ScopedInstructions[]) => files.map((f) => f.source);

describe("scoped instructions in a workspace of several folders", () => {
  const alphaSrc = file("alpha/.github/instructions/src.instructions.md", "/src/**", 0);
  const betaPy = file("beta/.github/instructions/py.instructions.md", "**/*.py", 1);
  const mine = file("/home/me/prompts/ts.instructions.md", "**/*.ts");

  it("a folder's applyTo matches paths relative to that folder, and that folder's files only", () => {
    assert.deepEqual(sources(instructionsFor([alphaSrc, betaPy], ["alpha/src/cart.ts"], two)), [alphaSrc.source], "/src/** anchored at alpha, not at the workspace");
    assert.deepEqual(sources(instructionsFor([alphaSrc, betaPy], ["beta/src/cart.ts"], two)), [], "beta's src is not alpha's");
    assert.deepEqual(sources(instructionsFor([alphaSrc, betaPy], ["alpha/tools/gen.py"], two)), [], "beta's Python rules stay in beta");
    assert.deepEqual(sources(instructionsFor([alphaSrc, betaPy], ["beta/tools/gen.py"], two)), [betaPy.source]);
  });

  it("a path that names no folder (a file the question mentions) may be any folder's; the user's own files apply in every folder", () => {
    assert.deepEqual(sources(instructionsFor([alphaSrc, betaPy], ["gen.py"], two)), [betaPy.source]);
    assert.deepEqual(sources(instructionsFor([mine], ["alpha/a.ts"], two)), [mine.source]);
    assert.deepEqual(sources(instructionsFor([mine], ["beta/lib/b.ts"], two)), [mine.source]);
  });

  it("applyTo ** applies to every request naming no file, and to its own folder's files only", () => {
    const alphaAll = file("alpha/.github/instructions/all.instructions.md", "**", 0);
    assert.deepEqual(sources(instructionsFor([alphaAll], [], two)), [alphaAll.source]);
    assert.deepEqual(sources(instructionsFor([alphaAll], ["alpha/x.md"], two)), [alphaAll.source]);
    assert.deepEqual(sources(instructionsFor([alphaAll], ["beta/x.md"], two)), []);
  });

  it("one folder: paths are matched as they are, whatever folder the file records", () => {
    const single = file(".github/instructions/src.instructions.md", "/src/**", 0);
    assert.deepEqual(sources(instructionsFor([single], ["src/a.ts"], ["alpha"])), [single.source]);
    assert.deepEqual(sources(instructionsFor([single], ["src/a.ts"])), [single.source]);
  });

  it("an agent task matches by the chat's paths: a file it edits in alpha gets alpha's instructions, not beta's", () => {
    const alphaPy = file("alpha/.github/instructions/py.instructions.md", "**/*.py", 0);
    const chat = { id: "c", title: "t", createdAt: 0, updatedAt: 0, pending: [], turns: [{ id: "q", role: "user" as const, text: "Type beta/app.py", attachments: [], createdAt: 0 }] };
    const task = taskCustomization({ chat, run: {}, agent: undefined, instructions: [alphaPy, betaPy], models: [], folders: two });
    assert.deepEqual(task.promptParts, [`Instructions for files matching **/*.py (from ${betaPy.source}):\n${betaPy.source} rules.`]);
    assert.match(task.instructionsForEdit("alpha/app.py")!, /alpha\/\.github\/instructions\/py\.instructions\.md rules\.$/);
    assert.equal(task.instructionsForEdit("beta/other.py"), undefined, "beta's were given at the start");
  });
});

describe("instructions files linked from one that applies", () => {
  const parse = (source: string, text: string) => parseScopedInstructions(source, text);
  const general = parse(".github/instructions/general.instructions.md", "---\ndescription: Shared rules\n---\nName things plainly.");
  const security = parse(".github/instructions/security/secrets.instructions.md", "Never log a key.");
  const ts = parse(".github/instructions/ts.instructions.md", "---\napplyTo: '**/*.ts'\n---\nApply the [general coding guidelines](./general.instructions.md) to all code, and #file:security/secrets.instructions.md.");

  it("go with it, as VS Code adds them, even without an applyTo of their own; once each", () => {
    const all = [ts, general, security];
    assert.deepEqual(sources(instructionsFor(all, ["src/a.ts"])), [ts.source, general.source, security.source]);
    assert.deepEqual(sources(instructionsFor(all, ["src/a.py"])), [], "nothing links them when ts does not apply");
    const both = parse(".github/instructions/both.instructions.md", "---\napplyTo: '**/*.ts'\n---\nSee [the general rules](general.instructions.md).");
    assert.deepEqual(sources(instructionsFor([ts, both, general, security], ["a.ts"])), [ts.source, general.source, security.source, both.source]);
  });

  it("the system prompt names a linked file by its source; links in nested folders, back up (..), from the folder (/) and in loops resolve", () => {
    const nested = parse(".github/instructions/frontend/react.instructions.md", "---\napplyTo: '**/*.tsx'\n---\nFollow [../general.instructions.md](../general.instructions.md) and [loop](/.github/instructions/frontend/react.instructions.md).");
    const task = taskCustomization({ chat: undefined, run: {}, agent: undefined, instructions: [nested, general], models: [] });
    assert.equal(task.instructionsForEdit("src/App.tsx"), `Instructions for files matching **/*.tsx (from ${nested.source}):\nFollow [../general.instructions.md](../general.instructions.md) and [loop](/.github/instructions/frontend/react.instructions.md).\n\nInstructions (from ${general.source}):\nName things plainly.`);
  });

  it("in a workspace of several folders, a link stays in its file's folder", () => {
    const alphaTs = { ...parse("alpha/.github/instructions/ts.instructions.md", "---\napplyTo: '**/*.ts'\n---\nSee [general](general.instructions.md) and [team](/.github/instructions/team/style.instructions.md)."), folder: 0 };
    const alphaGeneral = { ...parse("alpha/.github/instructions/general.instructions.md", "Alpha's general rules."), folder: 0 };
    const betaGeneral = { ...parse("beta/.github/instructions/general.instructions.md", "Beta's general rules."), folder: 1 };
    const alphaStyle = { ...parse("alpha/.github/instructions/team/style.instructions.md", "Alpha's style."), folder: 0 };
    assert.deepEqual(sources(instructionsFor([alphaTs, betaGeneral, alphaGeneral, alphaStyle], ["alpha/a.ts"], two)), [alphaTs.source, alphaGeneral.source, alphaStyle.source]);
  });

  it("a file without applyTo says it goes only where one that applies links it", () => {
    assert.match(general.problems[0]!.message, /only where an instructions file that applies links them/);
  });
});

describe("instructions files the project's rules link", () => {
  const python = parseScopedInstructions(".github/instructions/python.instructions.md", "---\napplyTo: '**/*.py'\n---\nUse type hints. See [the naming rules](naming.instructions.md).");
  const naming = parseScopedInstructions(".github/instructions/naming.instructions.md", "Name things plainly.");
  const rules = [{ path: ".github/copilot-instructions.md", text: "For Python, follow [our Python rules](instructions/python.instructions.md)." }];

  it("go with every request the rules go with, as VS Code adds those of copilot-instructions.md, with the files they link", () => {
    assert.deepEqual(sources(instructionsLinkedBy(rules, [python, naming])), [python.source, naming.source]);
    assert.deepEqual(sources(instructionsLinkedBy([{ path: "AGENTS.md", text: "No links here." }], [python, naming])), []);
    assert.deepEqual(sources(instructionsLinkedBy([{ path: "beta/AGENTS.md", text: "See [naming](.github/instructions/naming.instructions.md)." }], [{ ...naming, source: "alpha/.github/instructions/naming.instructions.md" }, { ...naming, source: "beta/.github/instructions/naming.instructions.md" }], two)), ["beta/.github/instructions/naming.instructions.md"]);
  });

  it("in a task, once: not again when an edited file's instructions would bring them", () => {
    const task = taskCustomization({ chat: undefined, run: {}, agent: undefined, instructions: [python, naming], models: [] });
    assert.deepEqual(task.instructionsLinkedBy(rules), [`Instructions for files matching **/*.py (from ${python.source}):\n${python.text}`, `Instructions (from ${naming.source}):\nName things plainly.`]);
    assert.equal(task.instructionsForEdit("src/app.py"), undefined, "already in the system prompt");
    assert.deepEqual(task.instructionsLinkedBy(rules), []);
  });
});
