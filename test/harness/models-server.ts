import { ScriptedApi } from "./scripted-api";

export interface ModelsServer {
  /** OpenAI-style base URL, ending in /v1. */
  readonly baseUrl: string;
  /** Authorization headers of the requests received, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** A scripted API that lists `models` for one accepted key (see ScriptedApi). */
export function startModelsServer(options: { key: string; models: readonly string[] }): Promise<ModelsServer> {
  return ScriptedApi.start(options);
}
