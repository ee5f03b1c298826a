/**
 * The characters of a / command's name: letters and digits of any script (créer-test, テスト作成),
 * combining marks (é typed as e + U+0301), `_`, `.` and `-`.
 */
const nameClass = String.raw`\p{L}\p{M}\p{N}_.\-`;

/** One character of a command's name, for a pattern with the `u` flag. */
export const commandNameChar = `[${nameClass}]`;

const typeable = new RegExp(`^${commandNameChar}+$`, "u");
const untypeable = new RegExp(`[^${nameClass}]+`, "gu");

/** Whether `name` can be typed after `/`. */
export function isTypeableName(name: string): boolean {
  return typeable.test(name);
}

/** `text` made typeable after `/`: each run of other characters (spaces, punctuation) is a `-`. */
export function typeableName(text: string): string {
  return text.normalize("NFC").replace(untypeable, "-");
}
