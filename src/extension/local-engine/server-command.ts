import { join } from "node:path";

/** How to run wisp-server: the bundled one on the editor's own Node runtime, or a custom command. */
export interface ServerCommand {
  readonly command: string;
  /** The command's arguments for these wisp-server arguments; `serving` adds the exit-with-the-editor hook. */
  argv(args: readonly string[], serving: boolean): string[];
  readonly env: NodeJS.ProcessEnv;
  /** For messages. */
  readonly label: string;
  /** The user's wisp.localServer.command (Windows runs it through cmd.exe: it may be a .cmd shim). */
  readonly custom: boolean;
}

/**
 * Loaded first into the bundled server: when its stdin pipe closes (the extension host exited,
 * even by a crash or a kill, without stopping it), it stops as on Ctrl+C, and exits anyway 5 s
 * later. Node passes this option on to the server's own child processes and worker threads
 * (node-llama-cpp forks a binary test; images run in workers): the variable, removed at once,
 * and the main-thread check keep it to the server itself.
 */
const exitWithEditorVariable = "WISP_EXIT_WITH_EDITOR";

/**
 * The hook's source for `platform`. Windows has no SIGTERM between or within processes
 * (process.kill ends a process at once there): the server's own SIGTERM handler is called instead,
 * which is also how the extension stops it there (platform-process.ts closes its stdin).
 */
export function exitWithEditorHook(platform: NodeJS.Platform): string {
  const stop = platform === "win32" ? 'if (!process.emit("SIGTERM", "SIGTERM")) process.exit(0);' : 'process.kill(process.pid, "SIGTERM");';
  return [
    'import { isMainThread } from "node:worker_threads";',
    `if (isMainThread && process.env.${exitWithEditorVariable} === "1") {`,
    `  delete process.env.${exitWithEditorVariable};`,
    `  process.stdin.on("end", () => { ${stop} setTimeout(() => process.exit(0), 5000).unref(); }).resume();`,
    "}",
  ].join("\n");
}

/** The bundled server (`dist/server/main.js` beside the extension) unless `custom` names a command. */
export function serverCommand(extensionPath: string, custom: string, platform = process.platform): ServerCommand {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The server has no use for the editor's key, and a child should not hold what it does not need.
  delete env.WISP_API_KEY;
  if (custom.trim() !== "") return { command: custom.trim(), argv: (args) => [...args], env, label: `"${custom.trim()}"`, custom: true };
  // Desktop VS Code's runtime is Electron: this makes it run scripts as plain Node does.
  if (process.versions.electron !== undefined) env.ELECTRON_RUN_AS_NODE = "1";
  const script = join(extensionPath, "dist", "server", "main.js");
  env[exitWithEditorVariable] = "1";
  const hook = ["--import", `data:text/javascript,${encodeURIComponent(exitWithEditorHook(platform))}`];
  return { command: process.execPath, argv: (args, serving) => [...(serving ? hook : []), script, ...args], env, label: "the bundled server", custom: false };
}
