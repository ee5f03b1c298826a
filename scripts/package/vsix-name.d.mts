/** This machine as a VS Code target name (linux-x64, darwin-arm64, win32-x64, ...). */
export function hostTarget(): string;
/** The .vsix file `npm run package` writes for `target` (default: this machine). */
export function vsixFileName(root: string, target?: string): string;
