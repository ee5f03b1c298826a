import assert from "node:assert/strict";
import { parseCommand } from "../../../src/server/cli-args";

describe("--login-link-lifetime", () => {
  it("is 2 minutes unless given in seconds, and above 0", () => {
    const lifetime = (argv: string[]) => {
      const command = parseCommand(argv, {});
      return command.kind === "serve" ? command.config.loginCodeMs : undefined;
    };
    assert.equal(lifetime([]), 120_000);
    assert.equal(lifetime(["--login-link-lifetime", "300"]), 300_000);
    assert.equal(lifetime(["--login-link-lifetime", "0.5"]), 500);
    assert.throws(() => parseCommand(["--login-link-lifetime", "0"], {}), /--login-link-lifetime must be a number of seconds above 0/);
  });
});
