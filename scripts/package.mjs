// Packages the extension as a .vsix, offline. The bundle already contains its dependencies,
// so vsce is told not to walk node_modules.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";

const { name, version } = JSON.parse(readFileSync("package.json", "utf8"));
const out = `${name}-${version}.vsix`;
const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit" });

run(process.execPath, ["scripts/build.mjs", "--minify"]);
run(process.execPath, [
  "node_modules/@vscode/vsce/vsce",
  "package",
  "--no-dependencies",
  "--allow-missing-repository",
  "--out",
  out,
]);
const kib = (statSync(out).size / 1024).toFixed(1);
console.log(`packaged ${out}: ${kib} KiB`);
