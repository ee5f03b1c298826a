import assert from "node:assert/strict";
import { languageOfPath } from "../../../../src/core/base/language-of-path";

describe("core/base: the language VS Code gives a closed file by its name", () => {
  const languages = [
    { id: "bat", extensions: [".bat", ".cmd"] },
    { id: "typescript", extensions: [".ts"] },
    { id: "typescriptreact", extensions: [".tsx"] },
    { id: "dockerfile", extensions: [".dockerfile"], filenames: ["Dockerfile"] },
    { id: "jsonc", extensions: [".code-workspace", ".jsonc"] },
    { id: "json", extensions: [".json"] },
  ];

  it("by extension (any case, the longest matching), by file name, and by files.associations first", () => {
    assert.equal(languageOfPath("/w/scripts/RUN.BAT", languages), "bat");
    assert.equal(languageOfPath("/w/a.tsx", languages), "typescriptreact");
    assert.equal(languageOfPath("/w/Dockerfile", languages), "dockerfile");
    assert.equal(languageOfPath("/w/x.code-workspace", languages), "jsonc");
    assert.equal(languageOfPath("/w/deploy.cmd", languages, { "*.cmd": "plaintext" }), "plaintext");
    assert.equal(languageOfPath("/w/Makefile.in", languages, { "Makefile.in": "makefile" }), "makefile");
    assert.equal(languageOfPath("/w/notes.unknown", languages), undefined);
  });
});
