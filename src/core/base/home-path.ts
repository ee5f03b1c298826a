/**
 * A folder setting with `~` for the home folder: `~`, `~/x`, and `~\x` as Windows users write it.
 * Anything else is returned as it is.
 */
export function expandHome(setting: string, home: string): string {
  return setting.replace(/^~(?=$|[\\/])/, home);
}
