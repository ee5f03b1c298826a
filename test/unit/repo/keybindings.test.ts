import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

interface Keybinding {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly when?: string;
}

const root = join(import.meta.dirname, "..", "..", "..");
const keybindings = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { contributes: { keybindings: Keybinding[] } }).contributes.keybindings;
const clauses = (binding: Keybinding) => (binding.when ?? "").split("&&").map((clause) => clause.trim());

describe("the keybindings package.json contributes", () => {
  it("leave Tab to VS Code while Tab Moves Focus is on (Ctrl+M), as its own Tab to accept ghost text does", () => {
    // Keyboard-only and screen reader users turn it on to Tab out of the editor: a Wisp binding
    // taking Tab then accepted a whole edit in place, or jumped to a next-edit suggestion.
    const tabs = keybindings.filter((b) => b.key === "tab" || b.mac === "tab");
    assert.ok(tabs.length >= 2, "Accept Edit and Go to or Accept Next Edit are on Tab");
    const taking = tabs.filter((b) => !clauses(b).includes("!editorTabMovesFocus")).map((b) => `${b.command} (when ${b.when})`);
    assert.deepEqual(taking, [], "Tab bindings without !editorTabMovesFocus");
  });
});
