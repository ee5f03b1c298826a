import { execFileSync } from "node:child_process";
import * as vscode from "vscode";
import { waitFor } from "../../harness/wait-for";

interface GitApi {
  getRepository(uri: vscode.Uri): unknown;
}

/** Runs git in `dir` as a test user (commits need a name and an e-mail); returns its output. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) => execFileSync("git", ["-c", "user.name=Wisp Test", "-c", "user.email=test@wisp.invalid", ...args], { cwd: dir, encoding: "utf8" });
}

async function gitApi(): Promise<GitApi> {
  return (await vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>("vscode.git")!.activate()).getAPI(1);
}

/** Waits until VS Code's Git extension has found, on its own, the repository that holds `file`. */
export async function openedByGit(file: vscode.Uri): Promise<void> {
  const api = await gitApi();
  await waitFor("the Git extension to open the repository", () => api.getRepository(file) !== null, (found) => found, 60_000);
}

/** Closes the repository of `dir` in the Git extension, so that later suites find none there. */
export async function closeInGit(dir: string, file: vscode.Uri): Promise<void> {
  const api = await gitApi();
  await vscode.commands.executeCommand("git.close", vscode.Uri.file(dir));
  await waitFor("the repository closed", () => api.getRepository(file), (found) => found === null);
}
