/** `GET /v1/models` item. */
export interface ModelInfo {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
  /** Wisp's local server says which models are for text and which for images; others do not. */
  kind?: string;
  /** The model's context window in tokens, where the server says it (see the client's parsing). */
  context_length?: number;
  /** Wisp's local server: it applies this model's own fill-in-the-middle tokens to a `suffix`. */
  fim?: boolean;
  /** Whether the model takes `tools`, where the server says (OpenRouter's `supported_parameters`); undefined: not said. */
  tools?: boolean;
}

/** `GET /v1/models` response. */
export interface ModelList {
  object: "list";
  data: ModelInfo[];
}

export type ModelRole = "completion" | "chat" | "image";

/**
 * The model a role uses when its setting is empty: the first listed model of the right kind.
 * Servers that do not say a model's kind serve text first, so every model counts as text there.
 */
export function defaultModelFor(role: ModelRole, models: readonly ModelInfo[]): string | undefined {
  const wanted = role === "image" ? "image" : "text";
  return models.find((m) => (m.kind ?? "text") === wanted)?.id;
}
