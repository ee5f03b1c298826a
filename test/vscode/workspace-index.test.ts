import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { SensitiveFileRules } from "../../src/extension/context/sensitive-file-rules";
import { WorkspaceIgnoreRules } from "../../src/extension/context/ignore-rules";
import { readTextFile } from "../../src/extension/context/text-files";
import { WorkspaceIndex, defaultIndexOptions } from "../../src/extension/context/workspace-index";
import { Logger } from "../../src/extension/logger";
import { waitFor } from "../harness/wait-for";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";

/**
 * The workspace index on its own (a second one beside Wisp's, on the same folder and watcher
 * events), with its file reads wrapped so that a test can act while one is under way.
 */
describe("The workspace index when files go while it reads them (real VS Code)", function () {
  this.timeout(60_000);
  const folder = join(workspace, "index-race");
  const marker = join(workspace, "index-race-after.ts");
  const disposables: vscode.Disposable[] = [];
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
    rmSync(folder, { recursive: true, force: true });
    rmSync(marker, { force: true });
  });

  it("a file deleted while it is read is not taken in, though its folder's delete event was handled first (it was offered in chat answers ever after)", async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "kept.ts"), "export const kept = 1;\n");
    const raced = join(folder, "raced.ts");
    let index: WorkspaceIndex | undefined;
    const paths = () => [...index!.index.paths()].filter((p) => p.startsWith("index-race/")).sort();
    let deletedMidRead = false;
    const log = new Logger("Wisp index test");
    const gitignores = new WorkspaceIgnoreRules(log);
    const sensitive = new SensitiveFileRules();
    index = new WorkspaceIndex(log, sensitive, gitignores, {
      ...defaultIndexOptions,
      read: async (uri, limits) => {
        const text = await readTextFile(uri, limits);
        if (uri.fsPath === raced && !deletedMidRead) {
          deletedMidRead = true;
          // The text is read; now the folder goes, and its delete event is handled (kept.ts dropped) before the read returns.
          rmSync(folder, { recursive: true, force: true });
          await waitFor("the folder's delete handled", paths, (p) => !p.includes("index-race/kept.ts"));
        }
        return text;
      },
    });
    disposables.push(index, gitignores, sensitive, log);
    await index.rebuild();
    assert.deepEqual(paths(), ["index-race/kept.ts"]);

    writeFileSync(raced, "export const raced = 2;\n");
    await waitFor("the read of raced.ts", () => deletedMidRead, (d) => d);
    // A file written afterwards comes through the same watcher: once it is in, the read before it
    // is long over. (Outside the folder: a new folder's scan would drop what is gone from it.)
    writeFileSync(marker, "export const after = 3;\n");
    await waitFor("the file written afterwards indexed", () => index!.index.paths(), (p) => [...p].includes("index-race-after.ts"));
    assert.deepEqual(paths(), [], "raced.ts, deleted while it was read, is not in the index");
  });

  it("a binary file and one too large to read are known by their paths, with no text to be found by (they were found by the words 'binary' and 'too-large')", async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    writeFileSync(join(folder, "dump.sql"), `-- ${"x".repeat(200)}\n`);
    writeFileSync(join(folder, "binary-search.ts"), "export function binarySearch(sorted: number[], x: number) { return sorted.indexOf(x); } // binary too large\n");
    const log = new Logger("Wisp index test");
    const gitignores = new WorkspaceIgnoreRules(log);
    const sensitive = new SensitiveFileRules();
    const index = new WorkspaceIndex(log, sensitive, gitignores, { ...defaultIndexOptions, maxBytes: 150 });
    disposables.push(index, gitignores, sensitive, log);
    await index.rebuild();
    const paths = [...index.index.paths()].filter((p) => p.startsWith("index-race/")).sort();
    assert.deepEqual(paths, ["index-race/binary-search.ts", "index-race/dump.sql", "index-race/logo.png"]);
    assert.deepEqual(index.index.chunksOf("index-race/logo.png"), []);
    assert.deepEqual(index.index.chunksOf("index-race/dump.sql"), []);
    const found = index.index.search("binary too large", { limit: 10 }).map((hit) => hit.chunk.path);
    assert.deepEqual(found.filter((p) => p.startsWith("index-race/")), ["index-race/binary-search.ts"]);
  });
  it("a link to a sensitive file is known by its path only, as the file it leads to is (its secrets were found by a search, and sent with questions)", async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, ".env"), "STRIPE_KEY=sk-live-linkedsecret42\n");
    symlinkSync(".env", join(folder, "notes.txt"));
    const log = new Logger("Wisp index test");
    const gitignores = new WorkspaceIgnoreRules(log);
    const sensitive = new SensitiveFileRules();
    const index = new WorkspaceIndex(log, sensitive, gitignores, defaultIndexOptions);
    disposables.push(index, gitignores, sensitive, log);
    await index.rebuild();
    const paths = [...index.index.paths()].filter((p) => p.startsWith("index-race/"));
    assert.deepEqual(paths, [], "neither .env nor the link to it is read");
    assert.deepEqual(index.sensitiveNamed("index-race/notes.txt"), ["index-race/notes.txt"], "the link is known as a sensitive file, offered only to a query that names it");
    assert.deepEqual(index.index.search("linkedsecret42 STRIPE_KEY", { limit: 10 }).map((hit) => hit.chunk.path).filter((p) => p.startsWith("index-race/")), []);
    assert.equal(index.relativePath(vscode.Uri.file(join(folder, "notes.txt"))), undefined, "nor offered in @-mentions and answers");
  });

  it("a workspace whose .gitignore'd node_modules holds more files than the index takes has its own files indexed (the search's first files, node_modules' among them, filled the limit)", async () => {
    const scale = join(workspace, "index-scale");
    mkdirSync(join(scale, "src"), { recursive: true });
    writeFileSync(join(scale, ".gitignore"), "node_modules/\n");
    const own = ["a", "b", "c", "d", "e"].map((name) => `index-scale/src/${name}.ts`);
    for (const path of own) writeFileSync(join(workspace, path), `export const ${path.slice(-4, -3)}Value = 1;\n`);
    for (let i = 0; i < 600; i++) {
      mkdirSync(join(scale, "node_modules", `pkg${i}`), { recursive: true });
      writeFileSync(join(scale, "node_modules", `pkg${i}`, "index.js"), `module.exports = ${i};\n`);
    }
    const log = new Logger("Wisp index test");
    // Removed after the indexes stop (disposed in order), so that they do not handle its 600 deletes.
    const gitignores = new WorkspaceIgnoreRules(log);
    const sensitive = new SensitiveFileRules();
    disposables.push(gitignores, sensitive, log, { dispose: () => rmSync(scale, { recursive: true, force: true }) });
    // The workspace's own files, however many the suites before left.
    const full = new WorkspaceIndex(log, sensitive, gitignores, defaultIndexOptions);
    disposables.unshift(full);
    // The .gitignore's own event may start the build again: the last one's end counts.
    void full.rebuild();
    await waitFor("the workspace indexed", () => full.status().state === "ready" && own.every((path) => full.index.has(path)), (ready) => ready);
    const files = full.index.fileCount;
    const limited = new WorkspaceIndex(log, sensitive, gitignores, { ...defaultIndexOptions, maxFiles: files + 10 });
    disposables.unshift(limited);
    await limited.rebuild();
    await waitFor("the limited index built", () => limited.status().state, (state) => state === "ready");
    assert.deepEqual(own.filter((path) => !limited.index.has(path)), [], "every file of the project's own is indexed");
    assert.equal(limited.index.fileCount, files);
    assert.deepEqual([...limited.index.paths()].filter((p) => p.includes("node_modules/")), []);
  });
});
