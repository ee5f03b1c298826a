#!/usr/bin/env node
// Launches the built server (dist/server/main.js); from a source checkout without a build it
// runs the TypeScript through tsx instead.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/server/main.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const source = fileURLToPath(new URL("../src/server/main.ts", import.meta.url));
  // Resolved from here, so it works whatever the current directory is.
  const tsx = import.meta.resolve("tsx");
  const child = spawn(process.execPath, ["--import", tsx, source, ...process.argv.slice(2)], { stdio: "inherit" });
  // The server is the child: pass stop signals on, and exit as it does.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
