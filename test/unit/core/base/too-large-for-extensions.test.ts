import assert from "node:assert/strict";
import { tooLargeForExtensions } from "../../../../src/core/base/too-large-for-extensions";

describe("a file VS Code does not hand to extensions", () => {
  it("says a file over 50 MB is why there is no editor to read, with its size", () => {
    assert.equal(tooLargeForExtensions("dump.sql", 80 * 1024 * 1024), "dump.sql is 80 MB: VS Code does not hand files over 50 MB to extensions, so Wisp cannot read it.");
  });

  it("gives no reason for a file of 50 MB or less, or one whose size is unknown (another reason, such as a binary file)", () => {
    assert.equal(tooLargeForExtensions("big.log", 50 * 1024 * 1024), undefined);
    assert.equal(tooLargeForExtensions("app.ts", 1200), undefined);
    assert.equal(tooLargeForExtensions("gone.ts", undefined), undefined);
  });
});
