/**
 * The models the local server serves with no download: the trained code model the package ships
 * (models/wisp-coder.gguf), the one it generates where no text model is there (wisp-tiny), and the
 * image model (wisp-tiny-diffusion). They make every feature run; none is good enough to keep.
 */
import type { ModelInfo } from "../api/models";

/** Text models first: the chat and the agent name them. */
export const embeddedModelIds: readonly string[] = ["wisp-coder", "wisp-tiny", "wisp-tiny-diffusion"];

/** What a user reads about them, in one line (wisp-coder: 25M parameters, a 1,024-token context). */
export const embeddedModelsLine = "the tiny embedded models (wisp-coder has 25 million parameters; code models worth keeping have billions)";

/** Whether this model is one of the embedded ones (a Wisp server lists them as owned by "wisp"). */
export function isEmbeddedModel(model: string | Pick<ModelInfo, "id" | "owned_by">): boolean {
  const { id, owned_by: owner } = typeof model === "string" ? { id: model, owned_by: undefined } : model;
  return embeddedModelIds.includes(id) && (owner === undefined || owner === "wisp");
}

/** The server lists models, and every one of them is an embedded one: nothing real to work with yet. */
export function servesOnlyEmbeddedModels(models: readonly Pick<ModelInfo, "id" | "owned_by">[]): boolean {
  return models.length > 0 && models.every((m) => isEmbeddedModel(m));
}
