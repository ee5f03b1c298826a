import * as vscode from "vscode";
import type { RuleFile } from "../../core/agent/agent-prompt";

/** The project's rules for the agent, root first: AGENTS.md, Copilot's instructions file, .wisp/rules/*.md. */
export async function loadRules(root: vscode.Uri): Promise<RuleFile[]> {
  const paths = ["AGENTS.md", ".github/copilot-instructions.md"];
  const rulesDir = vscode.Uri.joinPath(root, ".wisp", "rules");
  const entries = await vscode.workspace.fs.readDirectory(rulesDir).then(
    (list) => list,
    () => [] as [string, vscode.FileType][],
  );
  paths.push(...entries.filter(([name, type]) => type === vscode.FileType.File && name.endsWith(".md")).map(([name]) => `.wisp/rules/${name}`).sort());
  const rules: RuleFile[] = [];
  for (const path of paths) {
    const text = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, path)).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => undefined,
    );
    if (text?.trim()) rules.push({ path, text });
  }
  return rules;
}
