import assert from "node:assert/strict";
import { parseCustomAgent } from "../../../../src/core/customization/custom-agent";
import { parseFrontMatter } from "../../../../src/core/customization/front-matter";
import { hasErrors, parsePromptFile } from "../../../../src/core/customization/prompt-file";
import { parseScopedInstructions } from "../../../../src/core/customization/scoped-instructions";

describe("customization files: front matter", () => {
  it("reads a good prompt file: its fields, its body and where the body starts", () => {
    const text = [
      "---",
      "description: Write tests for the selection",
      "agent: agent",
      "model: [gpt-5, scripted-chat]",
      "tools: ['read_file', 'editFiles', 'my-server/*']",
      "argument-hint: the function to cover",
      "---",
      "Write tests for ${selection}.",
      "",
    ].join("\n");
    const file = parsePromptFile("write-tests.prompt.md", ".github/prompts/write-tests.prompt.md", text);
    assert.deepEqual(file.problems, []);
    assert.equal(file.name, "write-tests");
    assert.equal(file.description, "Write tests for the selection");
    assert.equal(file.agent, "agent");
    assert.deepEqual(file.models, ["gpt-5", "scripted-chat"]);
    assert.deepEqual(file.tools, ["read_file", "editFiles", "my-server/*"]);
    assert.equal(file.argumentHint, "the function to cover");
    assert.equal(file.body, "Write tests for ${selection}.\n");
    assert.equal(file.bodyLine, 7);
  });

  it("takes a file without front matter as all body, and the older `mode:` as `agent:`", () => {
    assert.deepEqual(parseFrontMatter("Just a prompt.\n"), { attributes: {}, keys: new Map(), body: "Just a prompt.\n", bodyLine: 0, problems: [] });
    const old = parsePromptFile("x.prompt.md", "x", "---\nmode: edit\n---\nDo it");
    assert.equal(old.agent, "agent", "edit mode runs as agent");
    assert.equal(parsePromptFile("y.prompt.md", "y", "---\nmode: ask\n---\nQ").agent, "ask");
  });

  it("warns about unknown keys at the key, and still uses the file", () => {
    const file = parsePromptFile("p.prompt.md", "p", "---\ndescription: ok\ncolour: blue\n---\nbody");
    assert.equal(hasErrors(file), false);
    assert.equal(file.problems.length, 1);
    const [warning] = file.problems;
    assert.equal(warning!.severity, "warning");
    assert.match(warning!.message, /does not know the key "colour"/);
    assert.deepEqual([warning!.start, warning!.end], [{ line: 2, column: 0 }, { line: 2, column: 6 }]);
  });

  it("keys Copilot reads that Wisp leaves aside are ignored without a warning", () => {
    const agent = parseCustomAgent("a.agent.md", "a", "---\ntarget: vscode\ninfer: true\n---\nBe brief.");
    assert.deepEqual(agent.problems, []);
    assert.equal(parseScopedInstructions("i", "---\napplyTo: '**'\nexcludeAgent: code-review\n---\nx").problems.length, 0);
  });

  it("bad YAML is an error placed at its line in the file, and the file gives no values", () => {
    const file = parsePromptFile("bad.prompt.md", "bad", "---\ndescription: fine\ntools: [read_file, grep_search\nagent: agent\n---\nbody");
    assert.ok(hasErrors(file));
    const error = file.problems.find((p) => p.severity === "error")!;
    assert.match(error.message, /^Bad YAML: /);
    assert.equal(error.start.line, 3, "the line after the unclosed list, counted in the file");
    assert.equal(file.agent, undefined);
  });

  it("a value of the wrong type, a list for front matter, an unclosed block and a duplicate key are errors", () => {
    const wrong = parsePromptFile("w.prompt.md", "w", "---\ndescription: [a, b]\n---\nbody");
    assert.match(wrong.problems[0]!.message, /"description" must be text, not a list/);
    assert.equal(wrong.problems[0]!.start.line, 1);
    assert.match(parsePromptFile("l.prompt.md", "l", "---\n- a\n- b\n---\n").problems[0]!.message, /must be keys and values/);
    assert.match(parsePromptFile("u.prompt.md", "u", "---\ndescription: x\nbody without end").problems[0]!.message, /never closed/);
    assert.ok(hasErrors(parsePromptFile("d.prompt.md", "d", "---\nagent: ask\nagent: agent\n---\n")));
  });

  it("reads CRLF files and a byte order mark", () => {
    const file = parsePromptFile("c.prompt.md", "c", "\uFEFF---\r\ndescription: crlf\r\n---\r\nline one\r\nline two");
    assert.deepEqual(file.problems, []);
    assert.equal(file.description, "crlf");
    assert.equal(file.body, "line one\nline two");
  });

  it("reads an agent's tools, model and handoffs; the body is its instructions", () => {
    const agent = parseCustomAgent(
      "reviewer.agent.md",
      ".github/agents/reviewer.agent.md",
      ["---", "description: Reviews changes", "tools: [codebase, problems]", "model: scripted-chat", "handoffs:", "  - label: Fix it", "    agent: agent", "    prompt: Fix what the review found.", "    send: true", "---", "Review the code.", ""].join("\n"),
    );
    assert.deepEqual(agent.problems, []);
    assert.equal(agent.name, "reviewer");
    assert.deepEqual(agent.tools, ["codebase", "problems"]);
    assert.deepEqual(agent.models, ["scripted-chat"]);
    assert.deepEqual(agent.handoffs, [{ label: "Fix it", agent: "agent", prompt: "Fix what the review found.", send: true }]);
    assert.equal(agent.instructions, "Review the code.");
    assert.equal(parseCustomAgent("old.chatmode.md", "x", "Body").name, "old");
  });

  it("a malformed handoff is left out with a warning at handoffs, the others and the agent kept (as VS Code skips it)", () => {
    const agent = parseCustomAgent("a.agent.md", "a", "---\nhandoffs:\n  - agent: agent\n  - label: Go\n  - label: Test it\n    agent: tester\n  - just text\n---\nBody");
    assert.equal(hasErrors(agent), false);
    assert.deepEqual(agent.handoffs, [{ label: "Test it", agent: "tester", prompt: "", send: false }]);
    assert.deepEqual(
      agent.problems.map((p) => [p.severity, p.message, p.start.line]),
      [
        ["warning", 'handoff 1 needs a "label" (the button\'s text). It is left out.', 1],
        ["warning", 'handoff 2 ("Go") needs an "agent" to continue in. It is left out.', 1],
        ["warning", 'handoff 4 must be { label, agent, prompt }, not string "just text". It is left out.', 1],
      ],
    );
  });

  it("an agent with user-invocable: false (or user-invokable, VS Code's first spelling) is no choice of the switch, without a warning", () => {
    const hidden = parseCustomAgent("scout.agent.md", "s", "---\nuser-invocable: false\n---\nScout.");
    assert.deepEqual([hidden.userInvocable, hidden.problems], [false, []]);
    assert.equal(parseCustomAgent("old.agent.md", "o", "---\nuser-invokable: false\n---\nOld.").userInvocable, false);
    assert.equal(parseCustomAgent("open.agent.md", "o", "---\nuser-invocable: true\n---\nOpen.").userInvocable, true);
    assert.equal(parseCustomAgent("plain.agent.md", "p", "Plain.").userInvocable, true);
  });

  it("handoffs that are not a list, and an agent named like a built-in mode, are errors", () => {
    assert.ok(hasErrors(parseCustomAgent("a.agent.md", "a", "---\nhandoffs: Fix it\n---\n")));
    assert.ok(hasErrors(parseCustomAgent("plan.agent.md", "p", "Body")));
    assert.ok(hasErrors(parseCustomAgent("x.agent.md", "p", "---\nname: Agent\n---\nBody")));
  });

  it("scoped instructions keep globs whole (braces may hold commas) and warn without applyTo", () => {
    const file = parseScopedInstructions("py", "---\napplyTo: '**/*.py, src/**/*.{ts,tsx}'\n---\nUse type hints.");
    assert.deepEqual(file.applyTo, ["**/*.py", "src/**/*.{ts,tsx}"]);
    assert.equal(file.text, "Use type hints.");
    const list = parseScopedInstructions("py", "---\napplyTo:\n  - '*.py'\n  - '*.pyi'\n---\nx");
    assert.deepEqual(list.applyTo, ["*.py", "*.pyi"]);
    const none = parseScopedInstructions("none", "Always be kind.");
    assert.equal(none.problems[0]!.severity, "warning");
    assert.match(none.problems[0]!.message, /No applyTo glob/);
  });

  it("unquoted globs starting with * are globs, as VS Code reads them, not YAML aliases", () => {
    const globsOf = (frontMatter: string) => {
      const file = parseScopedInstructions("i", `---\n${frontMatter}\n---\nUse type hints.`);
      assert.deepEqual(file.problems, [], frontMatter);
      return file.applyTo;
    };
    assert.deepEqual(globsOf("applyTo: **/*.ts"), ["**/*.ts"]);
    assert.deepEqual(globsOf("applyTo: **"), ["**"]);
    assert.deepEqual(globsOf("applyTo: *.py"), ["*.py"]);
    assert.deepEqual(globsOf("applyTo: **/*.ts,**/*.tsx   # the app"), ["**/*.ts", "**/*.tsx"]);
    assert.deepEqual(globsOf("applyTo: [**/*.ts, *.md, 'src/**', *.{js,jsx}]"), ["**/*.ts", "*.md", "src/**", "*.{js,jsx}"]);
    assert.deepEqual(globsOf("applyTo:\n  - **/*.py\n  - *.pyi"), ["**/*.py", "*.pyi"]);
    assert.deepEqual(globsOf("applyTo: \"**/*.ts\""), ["**/*.ts"], "quoted ones as before");
    assert.equal(parseScopedInstructions("i", "---\ndescription: |\n  *Bold* rules\napplyTo: *.py\n---\nx").description, "*Bold* rules", "a block of text stays as written");
  });

  it("values VS Code reads as text are that text: starting with @, a backquote, %, &, !, or | and > followed by words", () => {
    const descriptionOf = (value: string) => {
      const file = parsePromptFile("p.prompt.md", "p", `---\ndescription: ${value}\nagent: ask\n---\nDo it.`);
      assert.deepEqual(file.problems, [], value);
      assert.equal(file.agent, "ask", "the keys after it are read too");
      return file.description;
    };
    assert.equal(descriptionOf("@workspace Find where a symbol is used"), "@workspace Find where a symbol is used");
    assert.equal(descriptionOf("`npm test` failures, explained"), "`npm test` failures, explained");
    assert.equal(descriptionOf("%PATH% on Windows"), "%PATH% on Windows");
    assert.equal(descriptionOf("&& chains in shell scripts"), "&& chains in shell scripts", "not an anchor dropped from the text");
    assert.equal(descriptionOf("!important rules in CSS"), "!important rules in CSS", "not a tag dropped from the text");
    assert.equal(descriptionOf("> 5 files changed: review them"), "> 5 files changed: review them");
    assert.equal(descriptionOf("| pipe a command # not a comment"), "| pipe a command");
    assert.equal(descriptionOf("? Why this fails"), "? Why this fails");
    const agent = parseCustomAgent("a.agent.md", "a", "---\ntools: [read_file, @azure/*]\nhandoffs:\n  - label: Go\n    agent: agent\n    prompt: >\n      Folded\n      text\n---\nBody");
    assert.deepEqual(agent.problems, []);
    assert.deepEqual(agent.tools, ["read_file", "@azure/*"]);
    assert.equal(agent.handoffs[0]!.prompt, "Folded text\n", "a block scalar is still one");
  });

  it("lists indented with tabs are read, as VS Code reads them", () => {
    const agent = parseCustomAgent("a.agent.md", "a", "---\ntools:\n\t- read_file\n\t- **/x\nhandoffs:\n\t- label: Go\n\t\tagent: agent\n---\nBody");
    assert.deepEqual(agent.problems, []);
    assert.deepEqual(agent.tools, ["read_file", "**/x"]);
    assert.deepEqual(agent.handoffs, [{ label: "Go", agent: "agent", prompt: "", send: false }]);
  });

  it("a problem on a line after a rewritten one is still placed where it is in the file", () => {
    const warned = parsePromptFile("p.prompt.md", "p", "---\ntools:\n\t- read_file\n\t- *\ndescription: [a, b]\ncolour: blue\n---\n");
    assert.deepEqual(
      warned.problems.map((p) => [p.message.slice(0, 20), p.start, p.end]),
      [
        ['"description" must b', { line: 4, column: 0 }, { line: 4, column: 11 }],
        ["Wisp does not know t", { line: 5, column: 0 }, { line: 5, column: 6 }],
      ],
    );
    const yaml = parsePromptFile("p.prompt.md", "p", "---\nmodel: [**/*.ts, *.md]\ntools: [read_file, \t*x\n---\n");
    assert.deepEqual(yaml.problems.map((p) => [p.message.slice(0, 8), p.start]), [["Bad YAML", { line: 2, column: 22 }]], "the end of the line in the file, not of the line with quotes added");
  });

  it("a name that cannot be typed after / (EditorConfig Expert) leaves the command its file's name, with a warning; a file name that cannot either is an error", () => {
    const spaced = parsePromptFile("editorconfig.prompt.md", "editorconfig", "---\nname: 'EditorConfig Expert'\ndescription: Writes an .editorconfig\n---\nWrite it.");
    assert.equal(hasErrors(spaced), false, "the prompt file is still used");
    assert.equal(spaced.name, "editorconfig");
    assert.deepEqual(spaced.problems.map((p) => [p.severity, p.message, p.start.line]), [["warning", '"EditorConfig Expert" cannot be typed as a / command (letters, digits, dots, dashes and underscores only): this prompt runs as /editorconfig, its file\'s name.', 1]]);
    assert.ok(hasErrors(parsePromptFile("two words.prompt.md", "x", "---\nname: two words\n---\n")));
    assert.ok(hasErrors(parsePromptFile("two words.prompt.md", "x", "Body only.")));
    assert.equal(parsePromptFile("x.prompt.md", "x", "---\nname: other-name\n---\n").name, "other-name");
  });
});
