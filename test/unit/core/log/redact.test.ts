import assert from "node:assert/strict";
import { redact } from "../../../../src/core/log/redact";

describe("redact", () => {
  it("removes Authorization bearer values", () => {
    assert.equal(redact('headers: {"Authorization": "Bearer abc.def-123"}'), 'headers: {"Authorization": "Bearer [redacted]"}');
  });
  it("removes key-shaped tokens", () => {
    assert.equal(redact("using sk-proj_ABCDEFGHIJKL and wsk_0123456789abcdef"), "using [redacted] and [redacted]");
  });
  it("removes the local server's keys, but not model names", () => {
    const line = "created API key key_d0727fab14e4 (default): wisp-6gP6lfANbOp6lnTmBqWoeSbOGSWZP1gKpYe_1bXFKG8";
    assert.equal(redact(line), "created API key [redacted] (default): [redacted]");
    assert.equal(redact("model wisp-tiny-diffusion (image) from /m/wisp-tiny-diffusion"), "model wisp-tiny-diffusion (image) from /m/wisp-tiny-diffusion");
  });
  it("removes login tokens from URLs", () => {
    assert.equal(redact("console: http://127.0.0.1:8765/login?token=abc123XYZ&x=1"), "console: http://127.0.0.1:8765/login?token=[redacted]&x=1");
  });
  it("removes passwords and lone user names (tokens) from URLs, and keys from their query", () => {
    assert.equal(redact("base URL https://alice:pw@proxy.example/v1"), "base URL https://alice:[redacted]@proxy.example/v1");
    assert.equal(redact("base URL http://alice@10.0.0.2:8080/v1 (from settings)"), "base URL http://[redacted]@10.0.0.2:8080/v1 (from settings)");
    assert.equal(
      redact("base URL https://host/openai/v1?api-version=2024-10-21&api-key=abc123&api_key=def456&apikey=ghi789"),
      "base URL https://host/openai/v1?api-version=2024-10-21&api-key=[redacted]&api_key=[redacted]&apikey=[redacted]",
    );
    assert.equal(redact("mail alice@example.com about it"), "mail alice@example.com about it", "an e-mail address is no URL");
  });
  it("removes the known secrets wherever they appear", () => {
    assert.equal(redact("401 for key hunter2hunter2!", ["hunter2hunter2"]), "401 for key [redacted]!");
  });
  it("removes wisp-server's keys, admin tokens and login links", () => {
    const key = `wisp-${"A".repeat(43)}`;
    const admin = `wisp-admin-${"b_-".repeat(15)}`;
    assert.equal(redact(`server: created API key key_9c9936d46320 (default): ${key}`), "server: created API key [redacted] (default): [redacted]");
    assert.equal(redact(`server: console: http://127.0.0.1:8765/login?token=${admin}`), "server: console: http://127.0.0.1:8765/login?token=[redacted]");
    assert.equal(redact(`opening http://127.0.0.1:8765/login/${"c".repeat(43)}`), "opening http://127.0.0.1:8765/login/[redacted]");
    assert.equal(redact(`token ${admin} read`), "token [redacted] read");
    // Model and command names are no secrets.
    assert.equal(redact("model wisp-tiny-diffusion (image) from /m/wisp-tiny-diffusion; wisp-server listening"), "model wisp-tiny-diffusion (image) from /m/wisp-tiny-diffusion; wisp-server listening");
  });
  it("leaves ordinary text alone", () => {
    const line = "GET http://127.0.0.1:8765/v1/models -> 200 in 12 ms (key source: env)";
    assert.equal(redact(line, ["", "x"]), line);
  });
});
