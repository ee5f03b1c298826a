import * as vscode from "vscode";
import type { ApiKeyStore } from "../api-key";
import type { ConnectionMonitor } from "../connection-monitor";
import { hasLanguageModelProviderApi, languageModelProviderSince } from "./provider-api";
import { registerChatProvider, WispChatProvider, type WispChatProviderDeps } from "./wisp-chat-provider";

export interface LanguageModelDeps extends WispChatProviderDeps {
  readonly keys: ApiKeyStore;
  readonly connection: ConnectionMonitor;
}

/** The vendor in package.json's `languageModelChatProviders`. */
const vendor = "wisp";

/**
 * Offers the server's chat models in the editor's own chat while wisp.languageModels.enabled is
 * on, and has the editor list them again when the settings, the key or the connection change (a
 * check sees the server's model list, e.g. after the local server started).
 */
export function registerLanguageModels(deps: LanguageModelDeps): vscode.Disposable {
  if (!hasLanguageModelProviderApi(vscode)) {
    // Only this module loads the provider's files, which use that API (scripts/typecheck-oldest-vscode.mjs).
    deps.log.info(`Wisp's models are not offered in the editor's chat: that needs VS Code ${languageModelProviderSince} or later, and this is ${vscode.version}.`);
    return new vscode.Disposable(() => {});
  }
  let registered: { provider: WispChatProvider; registration: vscode.Disposable } | undefined;
  const unregister = () => {
    registered?.registration.dispose();
    registered?.provider.dispose();
    registered = undefined;
  };
  const update = () => {
    if (!deps.settings.value.languageModels.enabled) return unregister();
    if (registered) return registered.provider.refresh();
    const provider = new WispChatProvider(deps);
    registered = { provider, registration: registerChatProvider(vendor, provider) };
  };
  update();
  const subscriptions = [
    deps.settings.onDidChange(update),
    deps.keys.onDidChange(() => registered?.provider.refresh()),
    deps.connection.onDidChange(() => registered?.provider.refresh()),
  ];
  return new vscode.Disposable(() => {
    for (const subscription of subscriptions) subscription.dispose();
    unregister();
  });
}
