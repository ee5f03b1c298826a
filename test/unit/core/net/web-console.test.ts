import assert from "node:assert/strict";
import { webConsoleOrigin } from "../../../../src/core/net/web-console";

describe("webConsoleOrigin", () => {
  it("is the local server's root", () => {
    assert.equal(webConsoleOrigin("http://127.0.0.1:8765/v1"), "http://127.0.0.1:8765");
    assert.equal(webConsoleOrigin("http://localhost:9000/v1/"), "http://localhost:9000");
    assert.equal(webConsoleOrigin("http://[::1]:8765/v1"), "http://[::1]:8765");
  });
  it("says why there is none for a remote server or a broken URL", () => {
    assert.throws(() => webConsoleOrigin("https://api.example.com/v1"), /web console belongs to Wisp's local server, and wisp\.baseUrl points at api\.example\.com, not this machine: it is not the local server\./);
    assert.throws(() => webConsoleOrigin("not a url"), /is not a URL/);
  });
});
