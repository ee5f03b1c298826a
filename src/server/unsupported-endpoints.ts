// OpenAI API paths this server does not implement. A client pointed at it for one of them
// (LangChain's or Continue's embeddings, a Responses-API agent, Open WebUI's speech-to-text) is
// told that the server lacks the feature and what it does serve, not just "no route".

/** The server's own /v1 endpoints, as a 404 for an unsupported one lists them. */
const SERVED = "GET /v1/models, POST /v1/completions, POST /v1/chat/completions and POST /v1/images/generations";

interface Unsupported {
  /** The path, and the family under it (`/v1/audio` covers speech, transcriptions, translations). */
  readonly prefix: string;
  readonly name: string;
  /** What to use instead, where the server has something close. */
  readonly instead?: string;
}

const unsupported: readonly Unsupported[] = [
  { prefix: "/v1/embeddings", name: "embeddings API" },
  { prefix: "/v1/responses", name: "Responses API", instead: "set the client to the Chat Completions API (POST /v1/chat/completions)" },
  { prefix: "/v1/moderations", name: "moderations API" },
  { prefix: "/v1/audio", name: "audio API (speech, transcriptions, translations)" },
  { prefix: "/v1/images/edits", name: "image edits API", instead: "POST /v1/images/generations makes images from a prompt" },
  { prefix: "/v1/images/variations", name: "image variations API", instead: "POST /v1/images/generations makes images from a prompt" },
  { prefix: "/v1/files", name: "files API" },
  { prefix: "/v1/uploads", name: "uploads API" },
  { prefix: "/v1/batches", name: "batch API" },
  { prefix: "/v1/fine_tuning", name: "fine-tuning API" },
  { prefix: "/v1/assistants", name: "Assistants API" },
  { prefix: "/v1/threads", name: "Assistants API (threads)" },
  { prefix: "/v1/vector_stores", name: "vector stores API" },
  { prefix: "/v1/realtime", name: "Realtime API" },
  { prefix: "/v1/conversations", name: "Conversations API" },
];

/**
 * What to say of a request for an OpenAI endpoint the server does not implement, or undefined for
 * any other path. `path` is the request's path without its query.
 */
export function unsupportedEndpointMessage(method: string, path: string): string | undefined {
  const hit = unsupported.find((u) => path === u.prefix || path.startsWith(`${u.prefix}/`));
  if (!hit) return undefined;
  const instead = hit.instead ? `: ${hit.instead}` : "";
  return `${method} ${path}: this server does not implement OpenAI's ${hit.name}${instead}. It serves ${SERVED}`;
}
