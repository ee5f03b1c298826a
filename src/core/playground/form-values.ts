/** Reading numbers and lists typed into a form, with messages that name the field. */

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export interface NumberRule {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}

/** An empty field is "not set" (undefined); anything else must be a number within the rule. */
export function readNumber(field: string, text: string, rule: NumberRule, errors: FieldError[]): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  const range =
    rule.min !== undefined && rule.max !== undefined ? ` from ${rule.min} to ${rule.max}` : rule.min !== undefined ? ` of at least ${rule.min}` : "";
  const kind = rule.integer ? "a whole number" : "a number";
  if (!Number.isFinite(value) || (rule.integer && !Number.isInteger(value)) || (rule.min !== undefined && value < rule.min) || (rule.max !== undefined && value > rule.max)) {
    errors.push({ field, message: `${field} must be ${kind}${range}` });
    return undefined;
  }
  return value;
}

/** `\n`, `\t` and `\\` typed in a one-line field stand for a newline, a tab and a backslash. */
export function unescapeField(text: string): string {
  return text.replace(/\\([nt\\])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : "\\"));
}

/** One entry per line (blank lines dropped), escapes decoded. */
export function readLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line !== "")
    .map(unescapeField);
}
