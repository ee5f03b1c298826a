/**
 * `/init`: an AGENTS.md drafted from what the workspace shows (its top-level layout, the build and
 * test commands of package.json, Makefile, pyproject.toml, Cargo.toml, go.mod), for the user to
 * review. An existing AGENTS.md keeps its text; only the sections it lacks are added.
 */

export interface WorkspaceFacts {
  readonly name: string;
  /** Top-level entries; folders end with `/`. */
  readonly entries: readonly string[];
  /** The text of the manifests found at the top level, by file name. */
  readonly manifests: Readonly<Record<string, string>>;
  /** Files per language, as counted in the workspace (largest first). */
  readonly languages: readonly { readonly language: string; readonly files: number }[];
}

const folderRoles: Record<string, string> = {
  "src/": "source code",
  "lib/": "library code",
  "app/": "application code",
  "packages/": "the workspace's packages",
  "cmd/": "command-line entry points",
  "internal/": "internal packages",
  "pkg/": "packages",
  "test/": "tests",
  "tests/": "tests",
  "spec/": "tests",
  "__tests__/": "tests",
  "docs/": "documentation",
  "doc/": "documentation",
  "scripts/": "scripts for building, testing and maintenance",
  "tools/": "development tools",
  "bin/": "executables",
  "examples/": "examples",
  "samples/": "samples",
  "bench/": "benchmarks",
  "benchmarks/": "benchmarks",
  "public/": "static files served as they are",
  "assets/": "images and other assets",
  "media/": "images and other assets",
  "config/": "configuration",
  "migrations/": "database migrations",
  ".github/": "CI workflows and Copilot/Wisp customization files",
};

const fileRoles: Record<string, string> = {
  "package.json": "Node.js package: dependencies and scripts",
  "tsconfig.json": "TypeScript compiler settings",
  Makefile: "make targets",
  "pyproject.toml": "Python project: dependencies and tool settings",
  "requirements.txt": "Python dependencies",
  "setup.py": "Python package setup",
  "Cargo.toml": "Rust crate",
  "go.mod": "Go module",
  Dockerfile: "container image",
  "README.md": "the project's introduction",
};

/** The draft for a workspace; with `existing`, that text plus the sections it does not have. */
export function draftAgentsMd(facts: WorkspaceFacts, existing?: string): string {
  const sections = [
    { heading: "Layout", lines: layout(facts) },
    { heading: "Build and test", lines: commands(facts) },
    { heading: "Conventions", lines: conventions(facts) },
  ].filter((s) => s.lines.length > 0);
  if (existing !== undefined && existing.trim() !== "") {
    const has = (heading: string) => new RegExp(`^#{1,6}\\s+${heading.replace(/ /g, "\\s+")}\\s*$`, "im").test(existing);
    const missing = sections.filter((s) => !has(s.heading));
    if (missing.length === 0) return existing;
    return `${existing.replace(/\s*$/, "")}\n\n${missing.map(render).join("\n\n")}\n`;
  }
  const intro = `# AGENTS.md\n\nGuidance for coding agents working in ${facts.name}. Drafted by Wisp from the workspace: check it, complete it, and keep it current.`;
  return `${[intro, ...sections.map(render)].join("\n\n")}\n`;
}

function render(section: { heading: string; lines: readonly string[] }): string {
  return `## ${section.heading}\n\n${section.lines.join("\n")}`;
}

function layout(facts: WorkspaceFacts): string[] {
  const known = facts.entries.filter((e) => folderRoles[e] !== undefined || fileRoles[e] !== undefined);
  return known.map((e) => `- \`${e}\`: ${folderRoles[e] ?? fileRoles[e]}`);
}

function commands(facts: WorkspaceFacts): string[] {
  const lines: string[] = [];
  const m = facts.manifests;
  if (m["package.json"] !== undefined) lines.push(...nodeCommands(m["package.json"], facts.entries));
  if (m.Makefile !== undefined) lines.push(...makeCommands(m.Makefile));
  if (m["pyproject.toml"] !== undefined || m["requirements.txt"] !== undefined) lines.push(...pythonCommands(m["pyproject.toml"] ?? "", facts.entries));
  if (m["Cargo.toml"] !== undefined) lines.push("- Build: `cargo build`", "- Test: `cargo test`", "- Lint: `cargo clippy`");
  if (m["go.mod"] !== undefined) lines.push("- Build: `go build ./...`", "- Test: `go test ./...`", "- Check: `go vet ./...`");
  return lines;
}

const scriptOrder = ["build", "compile", "typecheck", "lint", "format", "test", "start", "dev"];

function nodeCommands(packageJson: string, entries: readonly string[]): string[] {
  let scripts: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(packageJson) as { scripts?: Record<string, unknown> };
    if (parsed.scripts && typeof parsed.scripts === "object") scripts = parsed.scripts;
  } catch {
    return ["- package.json could not be read as JSON: add the build and test commands here."];
  }
  const manager = entries.includes("pnpm-lock.yaml") ? "pnpm" : entries.includes("yarn.lock") ? "yarn" : entries.includes("bun.lockb") || entries.includes("bun.lock") ? "bun" : "npm";
  const install = manager === "npm" ? (entries.includes("package-lock.json") ? "npm ci" : "npm install") : `${manager} install`;
  const run = (name: string) => (manager === "npm" ? (name === "test" || name === "start" ? `npm ${name}` : `npm run ${name}`) : `${manager} ${name}`);
  const names = Object.keys(scripts).filter((n) => typeof scripts[n] === "string");
  const chosen = names.filter((n) => scriptOrder.some((s) => n === s || n.startsWith(`${s}:`)));
  chosen.sort((a, b) => scriptOrder.findIndex((s) => a === s || a.startsWith(`${s}:`)) - scriptOrder.findIndex((s) => b === s || b.startsWith(`${s}:`)));
  return [`- Install: \`${install}\``, ...chosen.slice(0, 10).map((n) => `- ${label(n)}: \`${run(n)}\` (runs \`${String(scripts[n])}\`)`)];
}

function makeCommands(makefile: string): string[] {
  const targets = [...makefile.matchAll(/^([A-Za-z0-9][\w.-]*)\s*:(?!=)/gm)].map((t) => t[1]!).filter((t, i, all) => all.indexOf(t) === i);
  const order = ["all", "build", "install", "test", "check", "lint", "format", "run", "clean"];
  const chosen = targets.filter((t) => order.includes(t)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return chosen.map((t) => `- ${label(t)}: \`make ${t === "all" ? "" : t}\``.replace("`make `", "`make`"));
}

function pythonCommands(pyproject: string, entries: readonly string[]): string[] {
  const lines: string[] = [];
  const install = entries.includes("uv.lock") ? "uv sync" : /^\[tool\.poetry\]/m.test(pyproject) ? "poetry install" : pyproject !== "" ? "pip install -e ." : "pip install -r requirements.txt";
  const runner = entries.includes("uv.lock") ? "uv run " : /^\[tool\.poetry\]/m.test(pyproject) ? "poetry run " : "";
  lines.push(`- Install: \`${install}\``);
  if (/\[tool\.pytest/.test(pyproject) || /\bpytest\b/.test(pyproject) || entries.includes("tests/") || entries.includes("pytest.ini")) lines.push(`- Test: \`${runner}pytest\``);
  if (/\[tool\.ruff/.test(pyproject)) lines.push(`- Lint: \`${runner}ruff check .\``);
  if (/\[tool\.mypy/.test(pyproject)) lines.push(`- Type check: \`${runner}mypy .\``);
  return lines;
}

function conventions(facts: WorkspaceFacts): string[] {
  const languages = facts.languages.slice(0, 5).map((l) => `${l.language} (${l.files} file${l.files === 1 ? "" : "s"})`);
  const lines = languages.length > 0 ? [`- Languages: ${languages.join(", ")}.`] : [];
  lines.push("- Follow the style of the code around a change; run the tests above before calling a change done.");
  return lines;
}

function label(name: string): string {
  const base = name.split(":")[0]!;
  const words: Record<string, string> = { typecheck: "Type check", all: "Build all", check: "Check", dev: "Develop", compile: "Build" };
  const head = words[base] ?? base.charAt(0).toUpperCase() + base.slice(1);
  return name.includes(":") ? `${head} (${name.slice(base.length + 1)})` : head;
}
