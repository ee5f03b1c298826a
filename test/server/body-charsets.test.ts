import assert from "node:assert/strict";
import { startServer, type TestServer } from "./server-fixture";

// The model's name comes back in the 404 for a model the server does not have: what the server read.
const body = JSON.stringify({ model: "modèle-日本-😀", messages: [{ role: "user", content: "héllo" }], max_tokens: 2 });

describe("JSON bodies in charsets other than UTF-8 (server)", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => (server = await startServer()));
  after(() => server?.close());

  const post = (bytes: Buffer, contentType: string) =>
    fetch(`${server.baseURL}/chat/completions`, { method: "POST", body: new Uint8Array(bytes), headers: { authorization: `Bearer ${server.key}`, "content-type": contentType } });
  const message = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

  it("reads a body in the charset its Content-Type names (UTF-16 with its BOM, Latin-1), as the UTF-8 one", async () => {
    const utf8 = await post(Buffer.from(body, "utf8"), "application/json");
    assert.equal(utf8.status, 404);
    assert.match(await message(utf8), /modèle-日本-😀/);
    const utf16 = await post(Buffer.from(`\ufeff${body}`, "utf16le"), "application/json; charset=UTF-16");
    assert.equal(utf16.status, 404, "UTF-16 refused");
    assert.match(await message(utf16), /modèle-日本-😀/);
    const latin1 = await post(Buffer.from(JSON.stringify({ model: "modèle", messages: [{ role: "user", content: "hi" }] }), "latin1"), "application/json; charset=iso-8859-1");
    assert.equal(latin1.status, 404);
    assert.match(await message(latin1), /'modèle'/);
  });

  it("refuses bytes that are not UTF-8 (Windows PowerShell 5.1 sends Latin-1 unless told), saying so, instead of reading each accented letter as U+FFFD", async () => {
    const response = await post(Buffer.from(body.replace("modèle-日本-😀", "modèle"), "latin1"), "application/json");
    assert.equal(response.status, 400);
    const text = await message(response);
    assert.match(text, /not UTF-8/);
    assert.match(text, /charset=/);
    assert.doesNotMatch(text, /\uFFFD/);
  });

  it("refuses a charset it does not know with 415, naming it", async () => {
    const response = await post(Buffer.from(body, "utf8"), "application/json; charset=x-klingon");
    assert.equal(response.status, 415);
    assert.match(await message(response), /x-klingon/);
  });
});
