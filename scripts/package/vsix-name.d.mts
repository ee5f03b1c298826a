/** The target name of the package without native code (vsce's package with no --target). */
export const universal: "universal";
/** This machine as a VS Code target name (linux-x64, darwin-arm64, win32-x64, ...). */
export function hostTarget(): string;
/** The .vsix file `npm run package` writes for `target` (default: this machine; `universal`: wisp-VERSION.vsix). */
export function vsixFileName(root: string, target?: string): string;
