/**
 * Files an agent's edit always asks for, whatever `wisp.agent.approveEdits` says: writing them can
 * run code or undo the user's own safeguards, so an injected instruction must not get there
 * unseen. git runs what its configuration and hooks name (`core.fsmonitor`, `diff.external`,
 * hooks) on commands that are approved by default (`git status`), in `.git/` or in any folder a
 * HEAD file makes a repository; `.vscode/` holds the editor's
 * and Wisp's settings (auto-approve rules, the server address), tasks, launch configurations and
 * MCP servers; `.wispignore` says which files are sensitive. Judged case-insensitively, as macOS
 * and Windows open `.GIT/config` as `.git/config`.
 */

const rules: readonly { readonly test: (segments: readonly string[]) => boolean; readonly why: string }[] = [
  { test: (s) => s.slice(0, -1).includes(".git") || s.at(-1) === ".git", why: "is git's own data: git runs the commands its configuration and hooks name" },
  // A folder with HEAD, objects/ and refs/ is a repository to git: run there (the workspace folder
  // when it is not a repository's root), git status takes the config beside it and runs its core.fsmonitor.
  { test: (s) => s.at(-1) === "head", why: "would make its folder a git repository to git, whose config there names commands git runs" },
  { test: (s) => s.slice(0, -1).includes(".vscode"), why: "is the editor's configuration: settings (Wisp's approvals and server among them), tasks, launch configurations and MCP servers" },
  { test: (s) => s.at(-1)!.endsWith(".code-workspace"), why: "is a workspace file: it holds the editor's settings, tasks and launch configurations" },
  { test: (s) => s.at(-1) === ".wispignore", why: "says which files Wisp treats as sensitive" },
];

/** Why an edit of the workspace-relative path always asks; undefined for an ordinary file. */
export function protectedPathReason(relative: string): string | undefined {
  const segments = relative.replace(/\\/g, "/").toLowerCase().split("/").filter((s) => s !== "" && s !== ".");
  if (segments.length === 0) return undefined;
  return rules.find((rule) => rule.test(segments))?.why;
}
