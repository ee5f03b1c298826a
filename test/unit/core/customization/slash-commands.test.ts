import assert from "node:assert/strict";
import { activeSlashQuery, builtInCommands, filterCommands, parseSlashCommand } from "../../../../src/core/customization/slash-commands";

describe("/ commands", () => {
  it("the built-ins, in the list's order", () => {
    assert.deepEqual(builtInCommands.map((c) => c.name), ["explain", "fix", "tests", "new", "compact", "init", "plan"]);
  });

  it("a message starting with /name is that command; the rest is its argument", () => {
    assert.deepEqual(parseSlashCommand("/plan add a cart total"), { name: "plan", argument: "add a cart total" });
    assert.deepEqual(parseSlashCommand("/compact"), { name: "compact", argument: "" });
    assert.deepEqual(parseSlashCommand("/fix-tests\nmore on the next line"), { name: "fix-tests", argument: "more on the next line" });
    assert.equal(parseSlashCommand("what does /usr/bin hold?"), undefined);
    assert.equal(parseSlashCommand("/usr/bin is where"), undefined, "a path is not a command");
  });

  it("a prompt file of another folder of the workspace is /FOLDER:NAME, in the message and in the list", () => {
    assert.deepEqual(parseSlashCommand("/beta:review the cart"), { name: "beta:review", argument: "the cart" });
    assert.equal(activeSlashQuery("/beta:rev", 9), "beta:rev");
  });

  it("the list is open while the caret is in a first word that starts with /", () => {
    assert.equal(activeSlashQuery("/", 1), "");
    assert.equal(activeSlashQuery("/pl", 3), "pl");
    assert.equal(activeSlashQuery("/plan ", 6), undefined, "past the command");
    assert.equal(activeSlashQuery("a /plan", 7), undefined, "not at the start");
    assert.equal(activeSlashQuery("/plan x", 0), undefined);
  });

  it("filters by prefix first, then by what the name contains", () => {
    const items = [...builtInCommands, { name: "test-cart", description: "", kind: "prompt" as const }];
    assert.deepEqual(filterCommands(items, "te").map((c) => c.name), ["tests", "test-cart"]);
    assert.deepEqual(filterCommands(items, "ni").map((c) => c.name), ["init"]);
    assert.deepEqual(filterCommands(items, "").length, items.length);
  });

  it("a command whose name has accents or another script is that command, as typed (é composed or not)", () => {
    assert.deepEqual(parseSlashCommand("/créer-test la page de connexion"), { name: "créer-test", argument: "la page de connexion" });
    assert.deepEqual(parseSlashCommand("/cre\u0301er-test"), { name: "créer-test", argument: "" });
    assert.deepEqual(parseSlashCommand("/前端:レビュー"), { name: "前端:レビュー", argument: "" });
    assert.equal(activeSlashQuery("/créer", 6), "créer");
  });
});
