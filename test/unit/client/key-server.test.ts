import assert from "node:assert/strict";
import { keyServerOf } from "../../../src/client/base-url";

describe("keyServerOf: which server an API key is kept for", () => {
  it("one server whatever the spelling: host case, default port, trailing slashes and query aside", () => {
    for (const url of ["http://Team.Example:80/v1/", "http://team.example/v1", "http://team.example/v1//", " http://team.example/v1?api-version=2024-10-21 "]) {
      assert.equal(keyServerOf(url), "http://team.example/v1", url);
    }
  });

  it("another port, path or scheme is another server", () => {
    const servers = ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8081/v1", "http://127.0.0.1:8080/openai/v1", "https://127.0.0.1:8080/v1"].map(keyServerOf);
    assert.equal(new Set(servers).size, 4);
  });

  it("a base URL with a password in it is named without it (a secret's name is not secret)", () => {
    assert.equal(keyServerOf("http://alice:s3cret@127.0.0.1:9/v1"), "127.0.0.1:9");
    assert.equal(keyServerOf("alice:s3cret@127.0.0.1:9/v1"), "127.0.0.1:9/v1");
  });
});
