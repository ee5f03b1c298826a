#!/usr/bin/env node
// Executable entry of the stand-in VS Code (see code-cli.ts); tsx loads the TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./code-cli.ts");
