import type { CompletionRequest } from "../../core/api/types";
import type { CompletionStream } from "../../core/completion/types";

/** The part of the API client that completions use (WispClient fits). */
export interface CompletionClient {
  streamCompletion(req: CompletionRequest, signal?: AbortSignal): AsyncIterable<{ text: string }>;
}

/**
 * Adapts the API client to the pipeline's network seam. Stopping the iteration (or aborting
 * `signal`) closes the HTTP stream, which stops generation on the server.
 */
export function clientCompletionStream(client: () => Promise<CompletionClient>): CompletionStream {
  return async function* (req, signal) {
    const api = await client();
    const body: CompletionRequest = {
      model: req.model,
      prompt: req.prompt,
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      ...(req.suffix !== undefined ? { suffix: req.suffix } : {}),
      ...(req.stop.length > 0 ? { stop: [...req.stop] } : {}),
    };
    for await (const delta of api.streamCompletion(body, signal)) {
      if (delta.text !== "") yield delta.text;
    }
  };
}
