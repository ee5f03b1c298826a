import assert from "node:assert/strict";
import { defaultHub, hubFileUrl, mirrorBase, resolveModelSource } from "../../../../src/server/models/pull/model-source";
import { findPreset, modelPresets } from "../../../../src/server/models/pull/presets";

describe("model sources", () => {
  it("resolves a preset to its repository file on the hub", () => {
    const source = resolveModelSource("qwen2.5-coder-1.5b", defaultHub);
    assert.equal(source.url, "https://huggingface.co/ggml-org/Qwen2.5-Coder-1.5B-Q8_0-GGUF/resolve/main/qwen2.5-coder-1.5b-q8_0.gguf");
    assert.equal(source.fileName, "qwen2.5-coder-1.5b-q8_0.gguf");
    assert.equal(source.preset?.role, "completion");
    assert.equal(resolveModelSource("  Qwen2.5-Coder-1.5B ", defaultHub).fileName, "qwen2.5-coder-1.5b-q8_0.gguf", "names are case-insensitive");
  });

  it("resolves owner/repo/file.gguf like the hub names a file", () => {
    assert.equal(resolveModelSource("bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q4_K_M.gguf", defaultHub).url, "https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf");
  });

  it("takes an https URL of a .gguf and names the file after its last path part", () => {
    const source = resolveModelSource("https://example.com/files/My%20Model.Q4_K_M.gguf?download=true", defaultHub);
    assert.equal(source.fileName, "My Model.Q4_K_M.gguf");
    assert.equal(source.url, "https://example.com/files/My%20Model.Q4_K_M.gguf?download=true");
  });

  it("allows plain http only to loopback", () => {
    for (const url of ["http://127.0.0.1:9000/a/b/resolve/main/m.gguf", "http://localhost/m.gguf", "http://[::1]:8080/m.gguf"]) {
      assert.equal(resolveModelSource(url, defaultHub).fileName, "m.gguf");
    }
    for (const url of ["http://10.0.0.2/m.gguf", "http://models.example.com/m.gguf", "ftp://example.com/m.gguf"]) {
      assert.throws(() => resolveModelSource(url, defaultHub), /must be an https:\/\/ address/, url);
    }
  });

  it("says what it accepts for anything else", () => {
    assert.throws(() => resolveModelSource("https://example.com/model.bin", defaultHub), /does not name a \.gguf file/);
    assert.throws(() => resolveModelSource("no-such-model", defaultHub), /unknown model "no-such-model": use a preset \(qwen2\.5-coder-0\.5b, .*owner\/repo\/file\.gguf, or an https:\/\/ URL/);
  });

  describe("mirror", () => {
    it("is the option, else WISP_MODEL_MIRROR, else the hub", () => {
      assert.equal(mirrorBase("https://mirror.corp/hf/", { WISP_MODEL_MIRROR: "https://env.corp" }), "https://mirror.corp/hf");
      assert.equal(mirrorBase("", { WISP_MODEL_MIRROR: " https://env.corp " }), "https://env.corp");
      assert.equal(mirrorBase(undefined, {}), defaultHub);
    });

    it("keeps the hub's layout under its base, path prefix included", () => {
      const base = mirrorBase("https://mirror.corp/hf", {});
      assert.equal(resolveModelSource("qwen3-0.6b", base).url, "https://mirror.corp/hf/ggml-org/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf");
      assert.equal(hubFileUrl(base, "a/b", "c d.gguf"), "https://mirror.corp/hf/a/b/resolve/main/c%20d.gguf");
    });

    it("routes an explicit hub URL through it, and leaves other hosts alone", () => {
      const base = mirrorBase("https://mirror.corp", {});
      assert.equal(resolveModelSource("https://huggingface.co/a/b/resolve/main/m.gguf", base).url, "https://mirror.corp/a/b/resolve/main/m.gguf");
      assert.equal(resolveModelSource("https://files.example.com/m.gguf", base).url, "https://files.example.com/m.gguf");
    });

    it("refuses a mirror that is no base URL or travels in the clear", () => {
      assert.throws(() => mirrorBase("mirror.corp", {}), /is not a URL/);
      assert.throws(() => mirrorBase("http://mirror.corp", {}), /must be an https:\/\/ address/);
      assert.throws(() => mirrorBase("https://mirror.corp/?token=x", {}), /plain base URL/);
    });
  });

  describe("presets", () => {
    it("offers code models for completion and instruct models for chat, small to large, each fully described", () => {
      for (const role of ["completion", "chat"] as const) {
        const sizes = modelPresets.filter((p) => p.role === role).map((p) => p.approxBytes);
        assert.ok(sizes.length >= 3, role);
        assert.deepEqual(sizes, [...sizes].sort((a, b) => a - b), `${role} presets run small to large`);
      }
      for (const p of modelPresets) {
        assert.match(p.repo, /^[\w.-]+\/[\w.-]+$/, p.name);
        assert.match(p.file, /^[\w.-]+\.gguf$/, p.name);
        assert.ok(p.ramGb * 1e9 > p.approxBytes, `${p.name} needs more memory than its file`);
        assert.ok(p.licence.length > 0 && p.description.length > 0, p.name);
        assert.equal(findPreset(p.name), p);
      }
      assert.equal(new Set(modelPresets.map((p) => p.name)).size, modelPresets.length);
    });

    it("states a SHA-256 only with where it was read", () => {
      for (const p of modelPresets.filter((x) => x.sha256)) {
        assert.match(p.sha256!.value, /^[0-9a-f]{64}$/, p.name);
        assert.match(p.sha256!.source, /^https:\/\//, p.name);
      }
    });
  });
});
