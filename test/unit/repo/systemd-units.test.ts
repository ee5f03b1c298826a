import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..", "..");
const guide = readFileSync(join(root, "docs/team-server.md"), "utf8");

/** The units an operator copies: the replicas' template file, and the single server's unit in the guide. */
const units = [
  { name: "wisp-server@.service", text: readFileSync(join(root, "docs/team-server/wisp-server@.service"), "utf8"), instance: "8765" },
  { name: "the guide's wisp-server.service", text: /```ini\n([\s\S]*?)```/.exec(guide)![1]!, instance: "" },
];
const settings = (text: string, key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((m) => m[1]!.trim());

describe("the systemd units docs/team-server.md gives", () => {
  for (const unit of units) {
    it(`${unit.name}: starts on a fresh machine, as the guide's steps leave it (its user made, its data folder made by systemd)`, () => {
      const user = settings(unit.text, "User")[0];
      if (user) assert.match(guide, new RegExp(`useradd [^\\n]*\\b${user}\\n`), `the guide makes the user ${user}`);
      // ProtectSystem=strict: the data folder must be writable, and a ReadWritePaths= path that does
      // not exist fails the start (226/NAMESPACE); StateDirectory= is made, owned by User=.
      const dataDir = /WISP_DATA_DIR=(\S+)/.exec(unit.text)![1]!.replace("%i", unit.instance);
      const made = settings(unit.text, "StateDirectory").map((d) => `/var/lib/${d.replace("%i", unit.instance)}`);
      assert.ok(made.some((d) => dataDir === d || dataDir.startsWith(`${d}/`)), `${dataDir} is not among the folders systemd makes (${made.join(", ") || "none"})`);
      for (const path of settings(unit.text, "ReadWritePaths")) assert.ok(path.startsWith("-") || made.some((d) => path === d), `ReadWritePaths=${path} must exist before the start`);
    });
  }
});
