import assert from "node:assert/strict";
import { SecretMaskingStream } from "../../../../src/core/terminal/secret-masking-stream";

const all = (stream: SecretMaskingStream, chunks: readonly string[]) => chunks.map((c) => stream.push(c)).join("") + stream.end();

describe("output masked as it streams in", () => {
  it("masks a key block whole however the chunks split it, as one [masked]", () => {
    const output = "adding key\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQyNTUxOQAAACBKZXlib2R5\n-----END OPENSSH PRIVATE KEY-----\nError loading key\n";
    for (const size of [1, 7, 40, output.length]) {
      const chunks = Array.from({ length: Math.ceil(output.length / size) }, (_, i) => output.slice(i * size, (i + 1) * size));
      assert.equal(all(new SecretMaskingStream(), chunks), "adding key\n[masked]\nError loading key\n", `chunks of ${size}`);
    }
  });

  it("masks values by the terminal's rules, a line split across chunks as a whole line", () => {
    assert.equal(all(new SecretMaskingStream(), ["export API_TO", "KEN=abc123\ncurl -u me:hun", "ter2 https://x\nok"]), "export API_TOKEN=[masked]\ncurl -u me:[masked] https://x\nok");
  });

  it("holds at most a long line's maxLine characters, masking what it lets go", () => {
    const stream = new SecretMaskingStream(100);
    const out = stream.push(`${"x".repeat(150)} password=hunter2`);
    assert.equal(out, `${"x".repeat(150)} password=[masked]`);
    assert.equal(stream.end(), "");
  });

  it("shows the unfinished last line masked as it stands, nothing of a key block still open", () => {
    const stream = new SecretMaskingStream();
    assert.equal(stream.push("ok\ncurl -u me:hun"), "ok\n");
    assert.equal(stream.preview(), "curl -u me:[masked]");
    stream.push("ter2\nkey: -----BEGIN RSA PRIVATE KEY-----\nMIIEow");
    assert.equal(stream.preview(), "");
    stream.push("IBAAKC\n-----END RSA PRIVATE KEY-----\nexport API_TOKEN=ab");
    assert.equal(stream.preview(), "export API_TOKEN=[masked]");
    assert.equal(stream.end(), "export API_TOKEN=[masked]");
  });
});
