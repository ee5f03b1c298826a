import { spawn } from "node:child_process";
import { WispClient } from "../../client/wisp-client";
import { isWispError } from "../../client/wisp-error";
import { launchLine } from "./platform-process";
import type { ServerCommand } from "./server-command";

/**
 * `wisp-server keys create --name NAME --data-dir DIR`: returns the new key's secret, the last
 * line it prints. Its output is never logged: it holds the secret.
 */
export function createServerKey(command: ServerCommand, dataDir: string, name = "vscode"): Promise<string> {
  const { file, args, windowsVerbatimArguments } = launchLine(command.command, command.argv(["keys", "create", "--name", name, "--data-dir", dataDir], false), process.platform, command.custom);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], env: command.env, windowsHide: true, windowsVerbatimArguments });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("error", (error: NodeJS.ErrnoException) => reject(new Error(spawnFailed(command, error))));
    child.once("exit", (code) => {
      const secret = out.trim().split(/\r?\n/).pop()?.trim() ?? "";
      if (code !== 0) reject(new Error(`${command.label} could not create an API key: ${err.trim() || `exit code ${code}`}`));
      // Another program (a wrong wisp.localServer.command) exits 0 too: what it printed is no key to keep.
      else if (!keyShape.test(secret)) reject(new Error(`${command.label} did not print an API key for 'keys create': is it wisp-server? It printed: ${(out.trim() || err.trim() || "nothing").slice(0, 200)}`));
      else resolve(secret);
    });
  });
}

/** Whether the server at `baseUrl` accepts `key`: false only when it says so (401/403). */
export async function keyAccepted(baseUrl: string, key: string): Promise<boolean> {
  try {
    await new WispClient({ baseUrl, apiKey: key, timeoutMs: 10_000 }).listModels();
    return true;
  } catch (error) {
    // Anything else is the connection monitor's to report.
    return !(isWispError(error, "bad-key") || isWispError(error, "forbidden"));
  }
}

/** A key as wisp-server prints it: one word (wisp-…), no spaces. */
const keyShape = /^[A-Za-z0-9_.~+/=-]{20,}$/;

/** Why the command could not be run at all: not there (ENOENT), not a program (EACCES), else the system's words. */
export function spawnFailed(command: ServerCommand, error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") return notFound(command);
  if (error.code === "EACCES") {
    return `${command.label} cannot be run (EACCES: not an executable file, or a folder). Make it executable (chmod +x), or set wisp.localServer.command to the wisp-server executable itself.`;
  }
  return `${command.label} cannot be run: ${error.message}`;
}

export function notFound(command: ServerCommand): string {
  return `${command.label} was not found. Clear wisp.localServer.command to use the bundled server, or set it to the full path of wisp-server.`;
}
