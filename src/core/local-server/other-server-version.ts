/**
 * What to tell the user when the Wisp server already answering at the base URL (another window's,
 * or one an earlier Wisp left running) is not this Wisp's version: Wisp uses it as it is, with that
 * version's models and fixes, which a user who just updated would not expect. Undefined when the
 * versions match, or the server cannot say its own.
 * `theirs` is what its /health says: undefined from a server older than the version field.
 */
export function otherServerVersionNote(origin: string, own: string, theirs: string | undefined): string | undefined {
  if (theirs === own || theirs === "unknown") return undefined;
  const runs = theirs === undefined ? "an earlier version" : `version ${theirs}`;
  return (
    `the Wisp server at ${origin} runs ${runs} (this Wisp is ${own}); it was started by another window or an earlier Wisp, and Wisp uses it as it is. ` +
    "To run this version's, stop it (Wisp: Stop Local Server in the window that started it, or close that window), then run Wisp: Start Local Server."
  );
}
