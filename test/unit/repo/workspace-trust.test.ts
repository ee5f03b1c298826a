import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..", "..");

interface Setting {
  readonly scope?: string;
}

interface Manifest {
  readonly main?: string;
  readonly capabilities?: { readonly untrustedWorkspaces?: { readonly supported: boolean | "limited"; readonly description?: string; readonly restrictedConfigurations?: readonly string[] } };
  readonly contributes: { readonly configuration: { readonly properties: Record<string, Setting> } | { readonly properties: Record<string, Setting> }[] };
}

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
const settings: [string, Setting][] = [manifest.contributes.configuration].flat().flatMap((c) => Object.entries(c.properties));
/** Scopes a workspace's settings file (or a .code-workspace file) cannot set: VS Code reads them from the user's settings only. */
const userOnly = new Set(["application", "machine"]);

describe("workspace trust: what an opened folder can make Wisp do (package.json)", () => {
  const trust = manifest.capabilities?.untrustedWorkspaces;

  it("keeps Wisp on in Restricted Mode, limited: without the declaration VS Code disables an extension with code there, all of it", () => {
    // VS Code treats an extension with a `main` and no declaration as `supported: false`.
    assert.ok(manifest.main);
    assert.equal(trust?.supported, "limited");
    assert.match(trust?.description ?? "", /agent mode, MCP servers and terminal fixes are off/);
  });

  it("lets no folder's settings name a folder, program or address for Wisp in Restricted Mode", () => {
    const restricted = new Set(trust?.restrictedConfigurations ?? []);
    const naming = settings.filter(([key]) => /(folder|dir|path|command|url|mirror|servers)$/i.test(key)).filter(([, s]) => !userOnly.has(s.scope ?? "window"));
    assert.deepEqual(naming.map(([key]) => key).filter((key) => !restricted.has(key)), []);
    for (const key of restricted) assert.ok(settings.some(([k]) => k === key), `${key} is a setting of Wisp's`);
  });

  it("reads from the user's settings only what docs/settings.md says it does, and names what Restricted Mode keeps from the folder", () => {
    const docs = readFileSync(join(root, "docs", "settings.md"), "utf8");
    const paragraph = docs.slice(docs.indexOf("Settings that decide where your API key goes"), docs.indexOf("In **Restricted Mode**"));
    const named = [...paragraph.matchAll(/`(wisp\.[\w.]+)`/g)].map((m) => m[1]!);
    assert.ok(named.length >= 10, paragraph);
    for (const key of named) assert.ok(userOnly.has(settings.find(([k]) => k === key)?.[1].scope ?? "window"), `${key} is read from the user's settings only`);
    const restrictedMode = docs.slice(docs.indexOf("In **Restricted Mode**"), docs.indexOf("| setting |"));
    for (const key of trust?.restrictedConfigurations ?? []) assert.ok(restrictedMode.includes(`\`${key}\``), `docs/settings.md's Restricted Mode paragraph names ${key}`);
  });
});
