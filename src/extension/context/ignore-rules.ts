import ignore, { type Ignore } from "ignore";
import * as vscode from "vscode";

/**
 * The workspace's .gitignore rules (every .gitignore, each applying below its own folder), so the
 * index and @file never offer what the project keeps out of git.
 */
export class IgnoreRules {
  private constructor(private readonly rules: readonly { base: string; matcher: Ignore }[]) {}

  static async load(folder: vscode.WorkspaceFolder): Promise<IgnoreRules> {
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, "**/.gitignore"), "**/node_modules/**", 200);
    const rules: { base: string; matcher: Ignore }[] = [];
    for (const uri of files) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const relative = vscode.workspace.asRelativePath(uri, false);
      const base = relative.includes("/") ? relative.slice(0, relative.lastIndexOf("/") + 1) : "";
      rules.push({ base, matcher: ignore().add(text) });
    }
    return new IgnoreRules(rules);
  }

  /** Whether a workspace-relative path (forward slashes) is ignored. */
  ignores(path: string): boolean {
    if (path.startsWith(".git/") || path.includes("/.git/")) return true;
    return this.rules.some(({ base, matcher }) => path.startsWith(base) && matcher.ignores(path.slice(base.length)));
  }
}
