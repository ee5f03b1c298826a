/** The first VS Code with all of the language-model provider API that Wisp's provider uses. */
export const languageModelProviderSince = "1.106";

/**
 * Whether the editor's API (the `vscode` module) has the language-model provider API:
 * vscode.lm.registerLanguageModelChatProvider, and LanguageModelDataPart, which the provider reads
 * in messages. Older editors, down to the oldest package.json's engines.vscode accepts, run the
 * rest of Wisp without it.
 */
export function hasLanguageModelProviderApi(api: object): boolean {
  const { lm, LanguageModelDataPart } = api as { readonly lm?: { readonly registerLanguageModelChatProvider?: unknown }; readonly LanguageModelDataPart?: unknown };
  return typeof lm?.registerLanguageModelChatProvider === "function" && typeof LanguageModelDataPart === "function";
}
