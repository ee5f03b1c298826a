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

  it("reads UTF-8 for utf8, utf8bom, an id the platform does not know, and none", () => {
    const utf8 = Buffer.from("Café\n");
    for (const id of ["utf8", "utf8bom", "no-such-encoding", undefined]) assert.equal(editorDecoder(id).decode(utf8), "Café\n", String(id));
  });
});
