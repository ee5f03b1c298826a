import assert from "node:assert/strict";
import path from "node:path";
import { parseCommand } from "../../../../src/server/cli-args";
import { presetTable } from "../../../../src/server/models/pull/pull-command";
import { modelPresets } from "../../../../src/server/models/pull/presets";

describe("wisp-server models", () => {
  it("parses models pull with its folder and mirror", () => {
    assert.deepEqual(parseCommand(["models", "pull", "qwen2.5-coder-1.5b", "--models-dir", "/tmp/m", "--mirror", "https://mirror.corp"]), {
      kind: "models-pull",
      spec: "qwen2.5-coder-1.5b",
      modelsDir: path.resolve("/tmp/m"),
      mirror: "https://mirror.corp",
    });
    assert.throws(() => parseCommand(["models", "pull"]), /models pull needs one NAME or URL/);
    assert.throws(() => parseCommand(["models", "fetch", "x"]), /unknown models command: fetch x/);
  });

  it("lists the presets as a table: name, use, download, memory, licence and the exact file", () => {
    const [header, ...rows] = presetTable();
    assert.match(header!, /^NAME\s+FOR\s+DOWNLOAD\s+RAM\s+LICENCE\s+FILE$/);
    assert.equal(rows.length, modelPresets.length);
    assert.match(rows[1]!, /^qwen2\.5-coder-1\.5b\s+completion\s+~1\.65 GB\s+~2\.5 GB\s+Apache-2\.0\s+ggml-org\/Qwen2\.5-Coder-1\.5B-Q8_0-GGUF\/qwen2\.5-coder-1\.5b-q8_0\.gguf$/);
  });
});
