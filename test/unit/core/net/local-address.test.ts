import assert from "node:assert/strict";
import { isLocalBaseUrl, localAddress } from "../../../../src/core/net/local-address";

describe("localAddress", () => {
  it("reads host and port from a loopback base URL", () => {
    assert.deepEqual(localAddress("http://127.0.0.1:8765/v1"), { host: "127.0.0.1", port: 8765 });
    assert.deepEqual(localAddress("http://localhost:9000/v1"), { host: "localhost", port: 9000 });
    assert.deepEqual(localAddress("http://[::1]:8765/v1"), { host: "::1", port: 8765 });
  });
  it("uses the scheme's port when none is given", () => {
    assert.deepEqual(localAddress("http://127.0.0.1/v1"), { host: "127.0.0.1", port: 80 });
  });
  it("refuses a server on another machine, naming it", () => {
    assert.throws(() => localAddress("https://api.example.com/v1"), /api\.example\.com, not this machine/);
  });
  it("refuses what is not a URL", () => {
    assert.throws(() => localAddress("127.0.0.1:8765"), /not a URL/);
  });
  it("refuses https, which the local server does not speak", () => {
    assert.throws(() => localAddress("https://localhost:8765/v1"), /plain http/);
  });
  it("tells which base URLs the local server can serve", () => {
    assert.equal(isLocalBaseUrl("http://127.0.0.1:8765/v1"), true);
    assert.equal(isLocalBaseUrl("http://localhost:11434/v1"), true);
    assert.equal(isLocalBaseUrl("https://api.example.com/v1"), false);
    assert.equal(isLocalBaseUrl("https://127.0.0.1:8765/v1"), false);
    assert.equal(isLocalBaseUrl("not a url"), false);
  });
});
