import assert from "node:assert/strict";
import { parseCommand } from "../../../src/server/cli-args";

describe("wisp-server keys create --name", () => {
  it("refuses a name that shows as something else (text-direction controls) or as nothing (zero-width)", () => {
    const create = (name: string) => parseCommand(["keys", "create", "--name", name], {});
    assert.throws(() => create("ci\u202Egnp.exe"), /visible text, without control, invisible or text-direction characters/);
    assert.throws(() => create("\u200B"), /visible text/);
    assert.throws(() => create("a\nb"), /visible text/);
    for (const name of ["laptop", "ноутбук", "👨‍👩‍👧 family", "עברית"]) {
      const command = create(name);
      assert.equal(command.kind === "keys-create" ? command.name : undefined, name);
    }
  });
});
