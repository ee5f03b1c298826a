import * as vscode from "vscode";
import type { WispClient } from "../../client/wisp-client";
import type { ModelInfo } from "../../core/api/models";

/**
 * The image model: `wisp.image.model`, else the server's only image model, else one picked from
 * `GET /v1/models` (image models where the server says which are which, every model where it does
 * not). Undefined when the pick is dismissed.
 */
export async function resolveImageModel(configured: string, client: WispClient, baseUrl: string): Promise<string | undefined> {
  if (configured !== "") return configured;
  const models = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "Wisp: listing models…" },
    () => client.listModels(),
  );
  const candidates = imageModelCandidates(models);
  if (candidates.length === 0) {
    const listed = models.length === 0 ? "none" : models.map((m) => m.id).join(", ");
    throw new Error(`The server at ${baseUrl} lists no image model (it has: ${listed}). Add one to the server, or set wisp.image.model.`);
  }
  if (candidates.length === 1) return candidates[0]!.id;
  const picked = await vscode.window.showQuickPick(
    candidates.map((m) => ({ label: m.id, description: m.kind === "image" ? "image model" : m.owned_by })),
    { title: "Wisp: image model", placeHolder: "wisp.image.model is empty: choose the model (Wisp: Select Model keeps a choice)", ignoreFocusOut: true },
  );
  return picked?.label;
}

function imageModelCandidates(models: readonly ModelInfo[]): readonly ModelInfo[] {
  const kinds = models.some((m) => m.kind !== undefined);
  return kinds ? models.filter((m) => m.kind === "image") : models;
}
