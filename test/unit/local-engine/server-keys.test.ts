import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerCommand } from "../../../src/extension/local-engine/server-command";
import { createServerKey, spawnFailed } from "../../../src/extension/local-engine/server-keys";
import { ServerProcess } from "../../../src/extension/local-engine/server-process";

/** wisp.localServer.command set to `path`, as the extension runs it. */
function custom(path: string): ServerCommand {
  return { command: path, argv: (args) => [...args], env: { ...process.env }, label: `"${path}"`, custom: true };
}

describe("extension/local-engine: wisp.localServer.command that is not wisp-server is refused, never taken for a key", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-server-keys-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a program that exits 0 printing something else (not wisp-server) gives no key to store, and says what it printed", async () => {
    await assert.rejects(createServerKey(custom("/bin/echo"), dir), (error: Error) => {
      assert.match(error.message, /^"\/bin\/echo" did not print an API key for 'keys create': is it wisp-server\? It printed: keys create --name vscode --data-dir /);
      return true;
    });
  });

  it("a script that prints a key as wisp-server does gives that key", async () => {
    const key = `wisp-${"a".repeat(43)}`;
    const script = join(dir, "wisp-server");
    writeFileSync(script, `#!/bin/sh\necho "created key_1 (vscode) in $5/keys.json"\necho ${key}\n`, { mode: 0o755 });
    assert.equal(await createServerKey(custom(script), dir), key);
  });

  it("a file that is not executable is named with what to do, when creating the key and when serving", async () => {
    const file = join(dir, "wisp-server.js");
    writeFileSync(file, "console.log('hi')\n", { mode: 0o644 });
    const expected = new RegExp(`^"${file.replace(/[.\\/]/g, "\\$&")}" cannot be run \\(EACCES: not an executable file, or a folder\\)\\. Make it executable \\(chmod \\+x\\)`);
    await assert.rejects(createServerKey(custom(file), dir), (error: Error) => {
      assert.match(error.message, expected);
      return true;
    });
    const server = ServerProcess.start(custom(file), [], () => {});
    await server.exited;
    assert.equal(server.spawnFailure?.code, "EACCES");
    assert.match(spawnFailed(custom(file), server.spawnFailure), expected);
  });
});
