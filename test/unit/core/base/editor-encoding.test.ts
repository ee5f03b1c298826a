import assert from "node:assert/strict";
import { editorDecoder } from "../../../../src/core/base/editor-encoding";

describe("core/base: decoding bytes as the editor reads them under files.encoding", () => {
  const latin1 = Buffer.from("Caf\xe9 r\xe9sum\xe9\n", "latin1");

  it("reads VS Code's encoding ids as the platform's labels", () => {
    assert.equal(editorDecoder("windows1252").decode(latin1), "Café résumé\n");
    assert.equal(editorDecoder("iso88591").decode(latin1), "Café résumé\n");
    assert.equal(editorDecoder("utf16le").decode(Buffer.from("\ufeffCafé\n", "utf16le")), "Café\n");
    assert.equal(editorDecoder("shiftjis").decode(Buffer.from([0x82, 0xa0])), "あ");
    assert.equal(editorDecoder("koi8r").decode(Buffer.from([0xc1])), "а");
  });

  it("reads the DOS code pages (cp437, cp850, cp852, cp865, cp1125), cp950 and iso885916, which the platform names otherwise or lacks, not as UTF-8", () => {
    // A batch file's "Café ░" in cp437 (a "[bat]" files.encoding): every byte over 0x7F was a U+FFFD.
    assert.equal(editorDecoder("cp437").decode(Buffer.from([0x43, 0x61, 0x66, 0x82, 0x20, 0xb0, 0x0a])), "Café ░\n");
    assert.equal(editorDecoder("cp850").decode(Buffer.from([0x9b])), "ø");
    assert.equal(editorDecoder("cp852").decode(Buffer.from([0x85])), "ů");
    assert.equal(editorDecoder("cp865").decode(Buffer.from([0x9b])), "ø");
    assert.equal(editorDecoder("cp1125").decode(Buffer.from([0xf2])), "Ґ");
    assert.equal(editorDecoder("cp950").decode(Buffer.from([0xa4, 0x40])), "一");
    assert.equal(editorDecoder("iso885916").decode(Buffer.from([0xa1])), "Ą");
  });

  it("reads UTF-8 for utf8, utf8bom, an id the platform does not know, and none", () => {
    const utf8 = Buffer.from("Café\n");
    for (const id of ["utf8", "utf8bom", "no-such-encoding", undefined]) assert.equal(editorDecoder(id).decode(utf8), "Café\n", String(id));
  });
});
