import type { CompletionInput } from "../../../src/core/completion/types";

/** A pipeline input from a document with the cursor marked by █. */
export function inputAt(doc: string, overrides: Partial<CompletionInput> = {}): CompletionInput {
  const at = doc.indexOf("█");
  if (at === -1) throw new Error(`no cursor in ${JSON.stringify(doc)}`);
  return {
    uri: "file:///work/a.ts",
    path: "src/a.ts",
    languageId: "typescript",
    prefix: doc.slice(0, at),
    prefixOffset: 0,
    suffix: doc.slice(at + 1),
    indent: { insertSpaces: true, tabSize: 4 },
    manual: false,
    ...overrides,
  };
}
