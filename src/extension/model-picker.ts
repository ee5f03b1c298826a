import * as vscode from "vscode";
import { parseBaseUrl } from "../client/base-url";
import type { ModelInfo } from "../core/api/models";
import type { ClientFactory } from "./client-factory";
import { busyUntil, nextAnswer } from "./quick-pick-answer";
import type { ModelRole, Settings } from "./settings";

const roles: readonly { role: ModelRole; label: string; detail: string }[] = [
  { role: "completion", label: "Completion", detail: "ghost text while typing (/v1/completions)" },
  { role: "chat", label: "Chat", detail: "the chat panel (/v1/chat/completions)" },
  { role: "image", label: "Image", detail: "Wisp: Generate Image (/v1/images/generations)" },
];

type Item = vscode.QuickPickItem & ({ readonly role: ModelRole } | { readonly model: string });

function isRole(value: unknown): value is ModelRole {
  return roles.some((r) => r.role === value);
}

/**
 * `Wisp: Select Model`: pick a role, then one of the models the server lists, and write it to the
 * settings. Scripted callers may pass the role (the pick then lists the models only), or the role
 * and the model id (no pick).
 */
export async function selectModel(
  clients: ClientFactory,
  settings: Settings,
  roleArg?: unknown,
  modelArg?: unknown,
): Promise<string | undefined> {
  // Listed while the user picks the role; a failure is reported where the list is awaited.
  const listing = listModels(clients, settings);
  listing.catch(() => undefined);
  const presetRole = isRole(roleArg) ? roleArg : undefined;
  if (presetRole !== undefined) {
    // With the role given, the pick opens once the models are there (the window shows the wait).
    const listed = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Wisp: listing models…" }, () => listing);
    if (typeof modelArg === "string") return save(settings, presetRole, requireListed(listed, modelArg));
  }
  const chosen = await pickRoleAndModel(settings, listing, presetRole);
  return chosen === undefined ? undefined : save(settings, chosen.role, chosen.model);
}

async function save(settings: Settings, role: ModelRole, model: string): Promise<string> {
  await settings.setModel(role, model);
  return model;
}

async function listModels(clients: ClientFactory, settings: Settings): Promise<readonly ModelInfo[]> {
  const models = await (await clients.create()).listModels();
  if (models.length === 0) throw new Error(`The server at ${parseBaseUrl(settings.value.baseUrl).display} lists no models.`);
  return models;
}

/**
 * Both steps in one quick pick that stays open between them: closing the first would hand the
 * focus back to the editor, and a webview editor takes it back a moment later, closing the second
 * step under the user (VS Code in the browser). The second step has a Back button to the first.
 */
async function pickRoleAndModel(
  settings: Settings,
  listing: Promise<readonly ModelInfo[]>,
  presetRole: ModelRole | undefined,
): Promise<{ role: ModelRole; model: string } | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  // A webview that had the focus can still take it back as the pick opens: keep the pick open.
  pick.ignoreFocusOut = true;
  try {
    let role = presetRole;
    for (;;) {
      if (role === undefined) {
        showRoles(pick, settings);
        const answer = await nextAnswer(pick);
        if (answer.kind !== "item" || !("role" in answer.item)) return undefined;
        role = answer.item.role;
      }
      // Busy only while the list is still on its way (not once it is there, as with a given role).
      const models = await busyUntil(pick, "Listing the server's models…", listing);
      if (models === "closed") return undefined;
      showModels(pick, models, role, settings, presetRole === undefined);
      const answer = await nextAnswer(pick);
      if (answer.kind === "closed") return undefined;
      if (answer.kind === "back" || !("model" in answer.item)) role = undefined;
      else return { role, model: answer.item.model };
    }
  } finally {
    pick.dispose();
  }
}

function showRoles(pick: vscode.QuickPick<Item>, settings: Settings): void {
  const current = settings.value;
  pick.title = "Wisp: Select Model";
  pick.placeholder = "Choose the model for…";
  pick.buttons = [];
  pick.value = "";
  pick.matchOnDescription = false;
  pick.items = roles.map((r) => ({ role: r.role, label: r.label, detail: r.detail, description: current[r.role].model || "(server default)" }));
  pick.show();
}

function showModels(pick: vscode.QuickPick<Item>, models: readonly ModelInfo[], role: ModelRole, settings: Settings, back: boolean): void {
  const current = settings.value[role].model;
  const items: Item[] = models.map((m) => ({ model: m.id, label: m.id, description: m.id === current ? "current" : m.owned_by }));
  pick.title = `Wisp: ${role} model`;
  pick.placeholder = `Model for ${role} (${models.length} on the server)`;
  pick.buttons = back ? [vscode.QuickInputButtons.Back] : [];
  pick.value = "";
  pick.matchOnDescription = true;
  pick.items = items;
  pick.show();
}

function requireListed(models: readonly ModelInfo[], id: string): string {
  if (!models.some((m) => m.id === id)) {
    throw new Error(`Model "${id}" is not listed by the server (it has: ${models.map((m) => m.id).join(", ")}).`);
  }
  return id;
}
