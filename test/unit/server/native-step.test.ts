import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommand } from "../../../src/server/cli-args";
import { findNativeStep, loadNativeStep, nodeLlamaCppVersion } from "../../../src/server/engines/text/native-step";

describe("native step: finding and checking build/native/decode-step.node", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-native-step-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A build folder with a .node file (here: not a real one) and its build record. */
  function build(version: string | undefined): string {
    mkdirSync(join(dir, "build/native"), { recursive: true });
    const file = join(dir, "build/native/decode-step.node");
    writeFileSync(file, "not a shared object");
    if (version !== undefined) writeFileSync(join(dir, "build/native/decode-step.json"), JSON.stringify({ nodeLlamaCpp: version }));
    return file;
  }

  it("finds the build in the nearest folder up (the repository from src/ or dist/server, dist/server itself when packaged)", () => {
    const file = build("1.0.0");
    mkdirSync(join(dir, "dist/server"), { recursive: true });
    assert.equal(findNativeStep(join(dir, "dist/server")), file);
    assert.equal(findNativeStep(dir), file);
    assert.equal(findNativeStep(tmpdir()), undefined);
  });

  it("says why it is not used: not built, no build record, another node-llama-cpp version, not loadable", () => {
    const from = join(dir, "dist/server");
    mkdirSync(from, { recursive: true });
    assert.equal(loadNativeStep({ from, version: "3.21.1" }).reason, `not built for ${process.platform}-${process.arch} (build/native/decode-step.node; npm run build:native where a C++ compiler is)`);
    build(undefined);
    assert.match(loadNativeStep({ from, version: "3.21.1" }).reason ?? "", /has no build record beside it \(npm run build:native\)/);
    build("3.20.0");
    assert.equal(loadNativeStep({ from, version: "3.21.1" }).reason, "built for node-llama-cpp 3.20.0, this is 3.21.1 (npm run build:native)");
    build("3.21.1");
    const load = loadNativeStep({ from, version: "3.21.1" });
    assert.equal(load.step, undefined);
    assert.match(load.reason ?? "", /^cannot load .*decode-step\.node: /);
  });

  it("reads the installed node-llama-cpp's version", () => {
    assert.match(nodeLlamaCppVersion(process.cwd()), /^\d+\.\d+\.\d+/);
  });

  it("--no-native-step turns it off; it is on by default", () => {
    const on = parseCommand([]);
    const off = parseCommand(["--no-native-step"]);
    assert.ok(on.kind === "serve" && off.kind === "serve");
    assert.deepEqual([on.config.nativeStep, off.config.nativeStep], [true, false]);
  });
});
