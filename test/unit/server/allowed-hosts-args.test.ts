import assert from "node:assert/strict";
import { parseCommand } from "../../../src/server/cli-args";

const allowedHosts = (argv: string[], env: Record<string, string> = {}) => {
  const command = parseCommand(argv, env);
  assert.ok(command.kind === "serve");
  return command.config.allowedHosts;
};

describe("--allowed-hosts", () => {
  it("comes from the flag, else WISP_ALLOWED_HOSTS, else none", () => {
    assert.deepEqual(allowedHosts(["--allowed-hosts", "wisp.example.com,.team.example"]), ["wisp.example.com", ".team.example"]);
    assert.deepEqual(allowedHosts([], { WISP_ALLOWED_HOSTS: "dev.example.com" }), ["dev.example.com"]);
    assert.deepEqual(allowedHosts(["--allowed-hosts", "all"], { WISP_ALLOWED_HOSTS: "dev.example.com" }), "all");
    assert.deepEqual(allowedHosts([], { WISP_ALLOWED_HOSTS: "" }), []);
    assert.deepEqual(allowedHosts([]), []);
  });
  it("names where a mistake came from", () => {
    assert.throws(() => parseCommand(["--allowed-hosts", "http://x.example"], {}), /--allowed-hosts takes host names/);
    assert.throws(() => parseCommand([], { WISP_ALLOWED_HOSTS: "x.example:80" }), /WISP_ALLOWED_HOSTS takes host names/);
  });
});
