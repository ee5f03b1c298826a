import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..", "..");
const json = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));

// onnxruntime-node's install script downloads CUDA libraries. npm 10 and 11 run a locked package's
// scripts only where package-lock.json says it has some; npm 11.16 and later also read allowScripts.
// Another onnxruntime-node version, or a lock file made from scratch, puts the flag back
// (docs/development.md): this says so at once, where the package suite's `npm ci` would say it
// minutes later.
describe("install scripts npm runs", () => {
  it("leaves out onnxruntime-node's download: not in the lock file's hasInstallScript, denied in allowScripts", () => {
    const entry = json("package-lock.json").packages["node_modules/onnxruntime-node"];
    assert.ok(entry, "onnxruntime-node is locked");
    assert.equal(entry.hasInstallScript, undefined, "package-lock.json: take hasInstallScript out of node_modules/onnxruntime-node");
    assert.equal(json("package.json").allowScripts["onnxruntime-node"], false);
  });
});
