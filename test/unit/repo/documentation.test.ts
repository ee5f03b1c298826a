import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { headingAnchors, linkTargets, relativeFileLinks } from "../../helpers/markdown-links";
import { findPreset, modelPresets } from "../../../src/server/models/pull/presets";

const root = join(import.meta.dirname, "..", "..", "..");

/** README.md and every Markdown page under docs/, as paths from the repository root. */
function documentationFiles(): string[] {
  const pages = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".md"));
  return ["README.md", ...pages.map((name) => join("docs", name))];
}

interface PackageJson {
  contributes: { commands: { command: string; title: string }[]; configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[] };
}

describe("the documentation (README.md and docs/)", () => {
  const files = documentationFiles();
  const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), "utf8")]));
  const all = [...texts.values()].join("\n");
  const named = (name: string) => new RegExp(`(?<![\\w.])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-]|\\.\\w)`).test(all);

  it("names every command the extension contributes, by its id or as 'Wisp: Title'", () => {
    const { contributes } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    const missing = contributes.commands.filter(({ command, title }) => !named(command) && !all.includes(`Wisp: ${title}`)).map(({ command, title }) => `${command} (Wisp: ${title})`);
    assert.deepEqual(missing, [], `commands in package.json that README.md and docs/*.md never name (docs/commands.md lists them):\n  ${missing.join("\n  ")}`);
  });

  it("names every setting the extension contributes", () => {
    const { contributes } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    const sections = Array.isArray(contributes.configuration) ? contributes.configuration : [contributes.configuration];
    const missing = sections.flatMap((section) => Object.keys(section.properties)).filter((key) => !named(key));
    assert.deepEqual(missing, [], `settings in package.json that README.md and docs/*.md never name (docs/settings.md lists them):\n  ${missing.join("\n  ")}`);
  });

  it("pulls only models wisp-server knows, with wisp-server itself: a preset, a hub file or a URL; never through npx", () => {
    const wrong: string[] = [];
    for (const [file, text] of texts) {
      // Wisp is not published to npm: npx would fetch whatever the registry holds under that name.
      for (const match of text.matchAll(/npx wisp-server[^\n`]*/g)) wrong.push(`${file}: ${match[0]} (run wisp-server from the checkout, not npx)`);
      for (const [, spec] of text.matchAll(/wisp-server models pull ([^\s`]+)/g)) {
        if (spec!.startsWith("NAME|") || /^https?:\/\//.test(spec!) || /^[\w.-]+\/[\w.-]+\/[\w.-]+\.gguf$/.test(spec!)) continue;
        if (findPreset(spec!) === undefined) wrong.push(`${file}: models pull ${spec} (no such preset: ${modelPresets.map((p) => p.name).join(", ")})`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("has no relative link or anchor that leads nowhere", () => {
    const broken: string[] = [];
    for (const [file, text] of texts) {
      for (const { target, path, anchor } of relativeFileLinks(text)) {
        const linked = path === "" ? file : relative(root, join(root, dirname(file), path));
        if (!existsSync(join(root, linked))) {
          broken.push(`${file}: ${target} (no ${linked})`);
          continue;
        }
        if (anchor === undefined || !linked.endsWith(".md") || statSync(join(root, linked)).isDirectory()) continue;
        if (!headingAnchors(readFileSync(join(root, linked), "utf8")).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${linked})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("keeps the README a first read: reference goes to docs/", () => {
    const lines = texts.get("README.md")!.split("\n").length;
    assert.ok(lines <= 150, `README.md has ${lines} lines; move reference text to a page under docs/ and link it from "Where to go next"`);
  });

  it("computes GitHub's anchors and finds links the way the checks above rely on", () => {
    const page = "# Wisp\n## Tool calling (`tools`, `tool_choice`)\n```sh\n# not a heading\n```\n## Wisp\nSee [a](docs/x.md#y), `[b](c.md)` and ![c](media/d.png).";
    assert.deepEqual([...headingAnchors(page)], ["wisp", "tool-calling-tools-tool_choice", "wisp-1"]);
    assert.deepEqual(linkTargets(page), ["docs/x.md#y", "media/d.png"]);
  });
});
