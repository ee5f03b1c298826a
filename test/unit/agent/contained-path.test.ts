import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveContained } from "../../../src/extension/agent/contained-path";

describe("extension/agent: paths contained in the workspace, through symbolic links", () => {
  let base: string;
  let root: string;
  let outside: string;

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "wisp-contained-")));
    root = join(base, "workspace");
    outside = join(base, "outside");
    await mkdir(join(root, "src"), { recursive: true });
    await mkdir(outside);
    await writeFile(join(root, "src", "cart.js"), "cart");
    await writeFile(join(outside, "secret.txt"), "secret");
    await symlink(join(outside, "secret.txt"), join(root, "secret-link.txt"));
    await symlink(outside, join(root, "out-dir"));
    await symlink(join(root, "src"), join(root, "src-link"));
    await symlink(join(outside, "missing.txt"), join(root, "dangling.txt"));
    await symlink(join(root, "loop-b"), join(root, "loop-a"));
    await symlink(join(root, "loop-a"), join(root, "loop-b"));
  });

  after(() => rm(base, { recursive: true, force: true }));

  it("resolves an existing file and a new file under a real folder", async () => {
    assert.deepEqual(await resolveContained(root, "src/cart.js"), { absolute: join(root, "src", "cart.js"), relative: "src/cart.js", target: "src/cart.js" });
    assert.deepEqual(await resolveContained(root, "src/new/deep/file.js"), { absolute: join(root, "src", "new", "deep", "file.js"), relative: "src/new/deep/file.js", target: "src/new/deep/file.js" });
    assert.deepEqual(await resolveContained(root, "."), { absolute: root, relative: "", target: "" });
  });

  it("an absolute path into the workspace is refused with the relative path to give (not called outside the workspace)", async () => {
    assert.deepEqual(await resolveContained(root, join(root, "src", "cart.js")), { error: `Path ${join(root, "src", "cart.js")} is absolute: give it relative to the workspace folder: "src/cart.js".` });
    assert.deepEqual(await resolveContained(root, root), { error: `Path ${root} is absolute: give it relative to the workspace folder: ".".` });
    assert.deepEqual(await resolveContained(root, join(outside, "secret.txt")), { error: `Path ${join(outside, "secret.txt")} is outside the workspace: give a path relative to the workspace folder.` });
  });

  it("follows a symbolic link that stays inside", async () => {
    assert.deepEqual(await resolveContained(root, "src-link/cart.js"), { absolute: join(root, "src", "cart.js"), relative: "src-link/cart.js", target: "src/cart.js" });
  });

  it("names the file a link inside leads to, by which it is judged (a link to .vscode/settings.json is that file)", async () => {
    await mkdir(join(root, ".vscode"), { recursive: true });
    await writeFile(join(root, ".vscode", "settings.json"), "{}");
    await symlink(join(root, ".vscode", "settings.json"), join(root, "editor.json"));
    await symlink(join(root, ".vscode"), join(root, "config"));
    assert.deepEqual(await resolveContained(root, "editor.json"), { absolute: join(root, ".vscode", "settings.json"), relative: "editor.json", target: ".vscode/settings.json" });
    assert.deepEqual(await resolveContained(root, "config/tasks.json"), { absolute: join(root, ".vscode", "tasks.json"), relative: "config/tasks.json", target: ".vscode/tasks.json" });
  });

  it("refuses a symlinked file that leads out", async () => {
    assert.match(errorOf(await resolveContained(root, "secret-link.txt")), /secret-link\.txt leads outside the workspace through a symbolic link/);
  });

  it("refuses a file in a symlinked folder that leads out, existing or new", async () => {
    assert.match(errorOf(await resolveContained(root, "out-dir/secret.txt")), /outside the workspace/);
    assert.match(errorOf(await resolveContained(root, "out-dir/new-file.txt")), /outside the workspace/);
    assert.match(errorOf(await resolveContained(root, "out-dir")), /outside the workspace/);
  });

  it("refuses a link to nothing (writing through it would create its target) and a link loop", async () => {
    assert.match(errorOf(await resolveContained(root, "dangling.txt")), /symbolic link that leads nowhere/);
    assert.match(errorOf(await resolveContained(root, "loop-a/x")), /symbolic link that leads nowhere/);
  });

  it("refuses lexically outside paths before touching the disk", async () => {
    assert.match(errorOf(await resolveContained(root, "../outside/secret.txt")), /outside the workspace/);
    assert.match(errorOf(await resolveContained(root, join(outside, "secret.txt"))), /outside the workspace/);
  });

  it("works when the workspace folder itself is reached through a symbolic link, and names the file under the link, as the editor's documents do", async () => {
    const alias = join(base, "alias");
    await symlink(root, alias);
    assert.deepEqual(await resolveContained(alias, "src/cart.js"), { absolute: join(alias, "src", "cart.js"), relative: "src/cart.js", target: "src/cart.js" });
    assert.deepEqual(await resolveContained(alias, "src-link/new.js"), { absolute: join(alias, "src", "new.js"), relative: "src-link/new.js", target: "src/new.js" });
    assert.match(errorOf(await resolveContained(alias, "secret-link.txt")), /outside the workspace/);
  });
});

function errorOf(result: { error: string } | { absolute: string }): string {
  assert.ok("error" in result, `expected an error, got ${JSON.stringify(result)}`);
  return result.error;
}
