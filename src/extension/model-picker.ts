import * as vscode from "vscode";
import type { ModelInfo } from "../core/api/models";
import type { ClientFactory } from "./client-factory";
import type { ModelRole, Settings } from "./settings";

const roles: readonly { role: ModelRole; label: string; detail: string }[] = [
  { role: "completion", label: "Completion", detail: "ghost text while typing (/v1/completions)" },
  { role: "chat", label: "Chat", detail: "the chat panel (/v1/chat/completions)" },
  { role: "image", label: "Image", detail: "Wisp: Generate Image (/v1/images/generations)" },
];

function isRole(value: unknown): value is ModelRole {
  return roles.some((r) => r.role === value);
}

/**
 * `Wisp: Select Model`: pick a role, then one of the models the server lists, and write it to the
 * settings. Scripted callers may pass the role and the model id.
 */
export async function selectModel(
  clients: ClientFactory,
  settings: Settings,
  roleArg?: unknown,
  modelArg?: unknown,
): Promise<string | undefined> {
  const role = isRole(roleArg) ? roleArg : await pickRole(settings);
  if (role === undefined) return undefined;
  const models = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "Wisp: listing models…" },
    async () => (await clients.create()).listModels(),
  );
  if (models.length === 0) throw new Error(`The server at ${settings.value.baseUrl} lists no models.`);
  const model = typeof modelArg === "string" ? requireListed(models, modelArg) : await pickModel(models, role, settings);
  if (model === undefined) return undefined;
  await settings.setModel(role, model);
  return model;
}

async function pickRole(settings: Settings): Promise<ModelRole | undefined> {
  const current = settings.value;
  const items = roles.map((r) => ({ ...r, description: current[r.role].model || "(server default)" }));
  const picked = await vscode.window.showQuickPick(items, { title: "Wisp: Select Model", placeHolder: "Choose the model for…" });
  return picked?.role;
}

async function pickModel(models: readonly ModelInfo[], role: ModelRole, settings: Settings): Promise<string | undefined> {
  const current = settings.value[role].model;
  const items = models.map((m) => ({
    label: m.id,
    description: m.id === current ? "current" : m.owned_by,
    picked: m.id === current,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `Wisp: ${role} model`,
    placeHolder: `Model for ${role} (${models.length} on the server)`,
    matchOnDescription: true,
  });
  return picked?.label;
}

function requireListed(models: readonly ModelInfo[], id: string): string {
  if (!models.some((m) => m.id === id)) {
    throw new Error(`Model "${id}" is not listed by the server (it has: ${models.map((m) => m.id).join(", ")}).`);
  }
  return id;
}
