import assert from "node:assert/strict";
import { maskedFixReason, planFix } from "../../../../src/core/review/plan-fix";

const original = ['  const apiKey = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";', "  const url = base + path;"];
const sent = ["  const apiKey = [masked];", "  const url = base + path;"];

describe("what Apply Fix writes when the model saw masked secrets", () => {
  it("a fix without [masked] is written as proposed", () => {
    assert.deepEqual(planFix('  const apiKey = "x";\n  const url = new URL(path, base);\n', original, sent), { kind: "apply", lines: ['  const apiKey = "x";', "  const url = new URL(path, base);"], restored: false });
  });

  it("a masked line the fix keeps gets the file's own value back, even re-indented", () => {
    assert.deepEqual(planFix("  const apiKey = [masked];\n  const url = new URL(path, base);", original, sent), {
      kind: "apply",
      lines: ['  const apiKey = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";', "  const url = new URL(path, base);"],
      restored: true,
    });
    assert.deepEqual(planFix("  if (base) {\n    const apiKey = [masked];\n  }", original, sent), {
      kind: "apply",
      lines: ["  if (base) {", '    const apiKey = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";', "  }"],
      restored: true,
    });
  });

  it("a line the fix changes around a masked value is refused, never written with [masked]", () => {
    assert.deepEqual(planFix("  const apiKey = process.env.KEY ?? [masked];\n  const url = base + path;", original, sent), { kind: "refused", reason: maskedFixReason });
  });

  it("a key block kept whole gets each of its lines back, in order", () => {
    const key = ["-----BEGIN PRIVATE KEY-----", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "-----END PRIVATE KEY-----", "mode: strict"];
    const shown = ["[masked]", "[masked]", "[masked]", "mode: strict"];
    assert.deepEqual(planFix("[masked]\n[masked]\n[masked]\nmode: lenient", key, shown), { kind: "apply", lines: [...key.slice(0, 3), "mode: lenient"], restored: true });
  });

  it("[masked] that the file has as text is the file's text", () => {
    const own = ['export const mask = "[masked]";'];
    assert.deepEqual(planFix('export const mask = "[masked]" as const;', own, own), { kind: "apply", lines: ['export const mask = "[masked]" as const;'], restored: false });
  });
});
