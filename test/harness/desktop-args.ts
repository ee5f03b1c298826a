/** The subset of desktop VS Code's command line that @vscode/test-electron passes to its executable. */
export interface DesktopArgs {
  extensionDevelopmentPaths: string[];
  extensionTestsPath?: string;
  userDataDir?: string;
  extensionsDir?: string;
  /** Folder or .code-workspace file to open. */
  target?: string;
}

const valued: Record<string, (args: DesktopArgs, value: string) => void> = {
  "--extensionDevelopmentPath": (args, value) => args.extensionDevelopmentPaths.push(value),
  "--extensionTestsPath": (args, value) => (args.extensionTestsPath = value),
  "--user-data-dir": (args, value) => (args.userDataDir = value),
  "--extensions-dir": (args, value) => (args.extensionsDir = value),
};

/** Accepts `--name=value` and `--name value`; other desktop-only flags (--no-sandbox, ...) are ignored. */
export function parseDesktopArgs(argv: readonly string[]): DesktopArgs {
  const args: DesktopArgs = { extensionDevelopmentPaths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("-")) {
      args.target ??= arg;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const apply = valued[name];
    if (apply === undefined) continue;
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new Error(`${name} needs a value`);
    apply(args, value);
  }
  return args;
}
