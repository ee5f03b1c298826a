/**
 * What Apply Fix writes for a finding. The model saw the reviewed lines with their secrets masked,
 * so its fix may carry `[masked]` where the file has a real value: a line it left as it was (but
 * for its indentation) gets the file's own text back; a line it changed around a masked value is
 * refused, since writing the placeholder would destroy the secret and guessing where it goes could
 * put it in the wrong place.
 */
import { mask } from "../terminal/mask-secrets";

export type FixPlan =
  | {
      readonly kind: "apply";
      readonly lines: readonly string[];
      /** Whether some `[masked]` of the fix stands for a value kept from the file. */
      readonly restored: boolean;
    }
  | { readonly kind: "refused"; readonly reason: string };

export const maskedFixReason =
  "This fix has [masked] where the file has a secret that Wisp masked before sending the code, on a line the fix changes: it is not applied, so that the secret is not overwritten. Make the change by hand.";

/**
 * The lines to write for `fix` in place of `original`, which the model saw as `sent`: each fix
 * line with `[masked]` that is a sent line (in order, maybe indented otherwise) becomes that
 * line's original text. More `[masked]` left than the original lines have as text is refused.
 */
export function planFix(fix: string, original: readonly string[], sent: readonly string[]): FixPlan {
  const lines = fix.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  if (!fix.includes(mask)) return { kind: "apply", lines, restored: false };
  let from = 0;
  let restored = false;
  const out = lines.map((line) => {
    if (!line.includes(mask)) return line;
    const body = line.trimStart();
    for (let i = from; i < sent.length; i++) {
      if (original[i] === sent[i] || sent[i]!.trimStart() !== body) continue;
      from = i + 1;
      restored = true;
      // Exactly the sent line: exactly the original; re-indented: the fix's indentation, the original's text.
      return line === sent[i] ? original[i]! : `${line.slice(0, line.length - body.length)}${original[i]!.trimStart()}`;
    }
    return line;
  });
  // A `[masked]` the file itself has (this very code, say) is the file's text, not a placeholder.
  if (count(out) > count(original)) return { kind: "refused", reason: maskedFixReason };
  return { kind: "apply", lines: out, restored };
}

function count(lines: readonly string[]): number {
  return lines.reduce((n, line) => n + line.split(mask).length - 1, 0);
}
