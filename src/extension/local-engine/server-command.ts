import { join } from "node:path";

/** How to run wisp-server: the bundled one on the editor's own Node runtime, or a custom command. */
export interface ServerCommand {
  readonly command: string;
  /** The command's arguments for these wisp-server arguments; `serving` adds the exit-with-the-editor hook. */
  argv(args: readonly string[], serving: boolean): string[];
  readonly env: NodeJS.ProcessEnv;
  /** For messages. */
  readonly label: string;
}

/**
 * Loaded first into the bundled server: when its stdin pipe closes (the extension host exited,
 * even by a crash or a kill, without stopping it), it stops as on Ctrl+C, and exits anyway 5 s later.
 */
const exitWithEditor =
  "process.stdin.on('end',()=>{process.kill(process.pid,'SIGTERM');setTimeout(()=>process.exit(0),5000).unref()}).resume()";

/** The bundled server (`dist/server/main.js` beside the extension) unless `custom` names a command. */
export function serverCommand(extensionPath: string, custom: string): ServerCommand {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The server has no use for the editor's key, and a child should not hold what it does not need.
  delete env.WISP_API_KEY;
  if (custom.trim() !== "") return { command: custom.trim(), argv: (args) => [...args], env, label: `"${custom.trim()}"` };
  // Desktop VS Code's runtime is Electron: this makes it run scripts as plain Node does.
  if (process.versions.electron !== undefined) env.ELECTRON_RUN_AS_NODE = "1";
  const script = join(extensionPath, "dist", "server", "main.js");
  const hook = ["--import", `data:text/javascript,${encodeURIComponent(exitWithEditor)}`];
  return { command: process.execPath, argv: (args, serving) => [...(serving ? hook : []), script, ...args], env, label: "the bundled server" };
}
