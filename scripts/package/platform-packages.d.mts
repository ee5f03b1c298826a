/** { version, integrity } that package-lock.json pins for `name`. */
export function lockedPackage(root: string, name: string): { version: string; integrity: string };
/** The folder holding package `name` as the lockfile pins it: installed (when that copy holds `holds`), cached, or fetched now. */
export function platformPackageDir(root: string, name: string, options?: { holds?: string; log?: (line: string) => void }): string;
/** Throws unless `bytes` hash to the lockfile's integrity (sha512 as npm writes it). */
export function checkIntegrity(bytes: Uint8Array, integrity: string, what: string): void;
