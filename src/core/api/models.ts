/** `GET /v1/models` item. */
export interface ModelInfo {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

/** `GET /v1/models` response. */
export interface ModelList {
  object: "list";
  data: ModelInfo[];
}
