/**
 * The API of VS Code's Git extension (`vscode.git`), or why there is none. With `git.enabled` off,
 * or no git found on the machine, the extension still activates, without its model: `enabled` is
 * false and getAPI throws a bare 'Git model not found', which says nothing of either cause.
 */
export interface GitExtensionExports<Api> {
  readonly enabled?: boolean;
  getAPI(version: 1): Api;
}

export function gitExtensionApi<Api>(exports: GitExtensionExports<Api>, gitEnabledSetting: boolean): { readonly api: Api } | { readonly unavailable: string } {
  if (!gitEnabledSetting) return { unavailable: "Git is turned off in this window (the git.enabled setting): turn it on to use git here." };
  if (exports.enabled === false) return { unavailable: "VS Code's Git extension found no git on this machine: install git, or set git.path to where it is, then reload the window." };
  return { api: exports.getAPI(1) };
}

/**
 * Why VS Code's Git extension is not there. In Restricted Mode VS Code itself keeps it off (git runs
 * a repository's hooks and fsmonitor), and enabling it in the Extensions view cannot help: trust can.
 */
export function gitExtensionMissing(workspaceTrusted: boolean): string {
  return workspaceTrusted
    ? "VS Code's Git extension is disabled in this window: enable it (the Extensions view, @builtin git) to use git here."
    : "Git is off in Restricted Mode: VS Code runs no git in a folder you have not trusted. Trust this folder to use git here.";
}
