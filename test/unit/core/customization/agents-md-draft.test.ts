import assert from "node:assert/strict";
import { draftAgentsMd } from "../../../../src/core/customization/agents-md-draft";

describe("/init: drafting AGENTS.md from the workspace", () => {
  const packageJson = JSON.stringify({ scripts: { build: "node build.mjs", test: "mocha", "test:e2e": "mocha e2e", lint: "eslint .", postinstall: "x", release: "y" } });

  it("lists the layout and the build and test commands of package.json", () => {
    const draft = draftAgentsMd({
      name: "shop",
      entries: ["src/", "test/", "docs/", "package.json", "package-lock.json", "README.md", "notes.txt"],
      manifests: { "package.json": packageJson },
      languages: [{ language: "TypeScript", files: 12 }, { language: "JSON", files: 1 }],
    });
    assert.equal(
      draft,
      [
        "# AGENTS.md",
        "",
        "Guidance for coding agents working in shop. Drafted by Wisp from the workspace: check it, complete it, and keep it current.",
        "",
        "## Layout",
        "",
        "- `src/`: source code",
        "- `test/`: tests",
        "- `docs/`: documentation",
        "- `package.json`: Node.js package: dependencies and scripts",
        "- `README.md`: the project's introduction",
        "",
        "## Build and test",
        "",
        "- Install: `npm ci`",
        "- Build: `npm run build` (runs `node build.mjs`)",
        "- Lint: `npm run lint` (runs `eslint .`)",
        "- Test: `npm test` (runs `mocha`)",
        "- Test (e2e): `npm run test:e2e` (runs `mocha e2e`)",
        "",
        "## Conventions",
        "",
        "- Languages: TypeScript (12 files), JSON (1 file).",
        "- Follow the style of the code around a change; run the tests above before calling a change done.",
        "",
      ].join("\n"),
    );
  });

  it("reads Makefile targets, pyproject tools and the lock file's package manager", () => {
    const draft = draftAgentsMd({
      name: "py",
      entries: ["Makefile", "pyproject.toml", "uv.lock", "tests/"],
      manifests: { Makefile: "all: build\nbuild:\n\tgo build\ntest: build\n\tpytest\nVAR := 1\nclean:\n\trm -rf out\n", "pyproject.toml": "[project]\nname='x'\n[tool.pytest.ini_options]\n[tool.ruff]\n" },
      languages: [],
    });
    assert.match(draft, /- Build all: `make`\n- Build: `make build`\n- Test: `make test`\n- Clean: `make clean`\n- Install: `uv sync`\n- Test: `uv run pytest`\n- Lint: `uv run ruff check \.`/);
    assert.ok(!draft.includes("VAR"));
  });

  it("keeps an existing AGENTS.md and adds only the sections it lacks", () => {
    const facts = { name: "shop", entries: ["src/", "package.json"], manifests: { "package.json": packageJson }, languages: [] };
    const existing = "# Our rules\n\n## Layout\n\nWe keep code in src.\n";
    const draft = draftAgentsMd(facts, existing);
    assert.ok(draft.startsWith(existing.trimEnd()));
    assert.equal(draft.match(/## Layout/g)!.length, 1);
    assert.match(draft, /\n\n## Build and test\n\n- Install: `npm install`/);
    const complete = draftAgentsMd(facts, draft);
    assert.equal(complete, draft, "nothing to add the second time");
  });
});
