import { resolve } from "node:path";

/** code-server serves the local file system under this remote authority. */
const remote = (path: string): string => `vscode-remote://remote${resolve(path)}`;

export interface WorkbenchTarget {
  /** Folder or .code-workspace file to open. */
  target?: string;
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
}

/** The workbench URL that opens `target` and, when given, runs extension tests like desktop's CLI flags do. */
export function workbenchUrl(base: string, options: WorkbenchTarget): string {
  const url = new URL("/", base);
  if (options.target !== undefined) {
    const key = options.target.endsWith(".code-workspace") ? "workspace" : "folder";
    url.searchParams.set(key, resolve(options.target));
  }
  const payload: [string, string][] = [];
  if (options.extensionDevelopmentPath !== undefined) payload.push(["extensionDevelopmentPath", remote(options.extensionDevelopmentPath)]);
  if (options.extensionTestsPath !== undefined) payload.push(["extensionTestsPath", remote(options.extensionTestsPath)]);
  if (payload.length > 0) url.searchParams.set("payload", JSON.stringify(payload));
  return url.toString();
}
