import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { checkIntegrity, lockedPackage, platformPackageDir } from "../../../scripts/package/platform-packages.mjs";

const root = join(import.meta.dirname, "..", "..", "..");

describe("platform packages for other targets: the lockfile's versions, checked against its integrity", () => {
  it("reads the pinned version and integrity of another platform's engine from package-lock.json", () => {
    const { version, integrity } = lockedPackage(root, "@node-llama-cpp/mac-arm64-metal");
    assert.equal(version, lockedPackage(root, "node-llama-cpp").version, "the same release as node-llama-cpp");
    assert.match(integrity, /^sha512-[A-Za-z0-9+/]+=*$/);
    assert.throws(() => lockedPackage(root, "@node-llama-cpp/no-such-platform"), /package-lock\.json pins no version of @node-llama-cpp\/no-such-platform/);
  });

  it("accepts a tarball whose sha512 matches and refuses any other", () => {
    const tarball = Buffer.from("a tarball's bytes");
    const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
    assert.doesNotThrow(() => checkIntegrity(tarball, integrity, "pkg@1.0.0"));
    assert.throws(() => checkIntegrity(Buffer.from("other bytes"), integrity, "pkg@1.0.0"), /pkg@1\.0\.0: the registry's tarball does not match package-lock\.json's integrity/);
  });

  it("uses the copy npm installed when it is the pinned version and holds what is needed", () => {
    assert.equal(platformPackageDir(root, "onnxruntime-node", { holds: "bin/napi-v6/linux/x64", log: () => assert.fail("nothing to fetch") }), join(root, "node_modules/onnxruntime-node"));
  });
});
