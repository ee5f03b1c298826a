/** Every VS Code target a package with the local server can be built for. */
export function supportedTargets(): string[];
/** Why no package can be built for `target`, or undefined when one can. */
export function unavailableReason(target: string): string | undefined;
/** Files the server bundles in `serverDir` load on `target`: { from (absolute), to (node_modules/...) }. */
export function serverRuntimeFiles(rootDir: string, serverDir: string, target: string, log?: (line: string) => void): Promise<{ from: string; to: string }[]>;
