import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RuleFile } from "../../core/agent/agent-prompt";
import { agentsFileIn, agentsFileName } from "../../core/agent/agents-file-name";
import { readTextFile } from "../context/text-files";

/** A rules file larger than this is no set of rules: left out. */
const maxRulesBytes = 256 * 1024;

/**
 * The project's rules for the agent, root first: AGENTS.md (agents.md …), Copilot's instructions file,
 * .wisp/rules/*.md. Read at each task, so an edit of them counts at once; from a local disk with
 * node:fs (the editor's file service took a round trip per file, 70-600 ms in all on a busy
 * machine, before a task's first request). A rules file that is a sensitive file, or a link to
 * one (AGENTS.md -> .env), is left out: its text would go to the model unasked.
 */
export async function loadRules(root: vscode.Uri, isSensitive: (uri: vscode.Uri) => boolean): Promise<RuleFile[]> {
  const paths = [(await agentsFile(root)) ?? agentsFileName, ".github/copilot-instructions.md"];
  const entries = await listFolder(vscode.Uri.joinPath(root, ".wisp", "rules"));
  paths.push(...entries.filter(([name, type]) => type & vscode.FileType.File && name.endsWith(".md")).map(([name]) => `.wisp/rules/${name}`).sort());
  const texts = await Promise.all(paths.map((path) => vscode.Uri.joinPath(root, path)).map((uri) => (isSensitive(uri) ? undefined : readText(uri))));
  return paths.flatMap((path, i) => (texts[i]?.trim() ? [{ path, text: texts[i]! }] : []));
}

/** The name of a folder's AGENTS.md, whatever its case (agents-file-name.ts); undefined: none. */
export async function agentsFile(folder: vscode.Uri): Promise<string | undefined> {
  // By name only: an AGENTS.md that is a link (to CLAUDE.md, say) counts.
  return agentsFileIn((await listFolder(folder)).map(([name]) => name));
}

async function listFolder(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
  if (uri.scheme === "file") {
    const entries = await readdir(uri.fsPath, { withFileTypes: true }).catch(() => []);
    // A link is the kind of what it leads to, as the editor's file service says (File | SymbolicLink): a linked rules file counts.
    const kind = async (e: (typeof entries)[number]): Promise<vscode.FileType> => {
      if (!e.isSymbolicLink()) return e.isFile() ? vscode.FileType.File : e.isDirectory() ? vscode.FileType.Directory : vscode.FileType.Unknown;
      const target = await stat(join(uri.fsPath, e.name)).catch(() => undefined);
      return vscode.FileType.SymbolicLink | (target?.isFile() ? vscode.FileType.File : target?.isDirectory() ? vscode.FileType.Directory : vscode.FileType.Unknown);
    };
    return Promise.all(entries.map(async (e): Promise<[string, vscode.FileType]> => [e.name, await kind(e)]));
  }
  return vscode.workspace.fs.readDirectory(uri).then(
    (list) => list,
    () => [],
  );
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const file = await readTextFile(uri, { maxBytes: maxRulesBytes }).catch(() => undefined);
  return file?.kind === "text" ? file.text : undefined;
}
