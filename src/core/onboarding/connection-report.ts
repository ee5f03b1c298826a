/**
 * What a connection test found, said plainly: whether anything answers at the address, whether the
 * key is accepted, which models the server lists, whether one of them answers a chat request and
 * whether one fills in the middle (ghost text). The probes run in the extension; this reads them.
 */
import type { ModelInfo } from "../api/models";

/** A failed request: a WispError's kind, HTTP status and message. */
export interface ProbeFailure {
  readonly kind: string;
  readonly status?: number;
  readonly message: string;
}

export interface ConnectionProbes {
  readonly baseUrl: string;
  readonly models: { readonly listed: readonly ModelInfo[] } | { readonly failed: ProbeFailure };
  /** The chat request tried (none when no model could chat). */
  readonly chat?: { readonly model: string; readonly failed?: ProbeFailure };
  /** The fill-in-the-middle request tried (none when no text model is listed). */
  readonly fim?: { readonly model: string; readonly failed?: ProbeFailure };
}

export type ConnectionProblem = "unreachable" | "no-key" | "bad-key" | "no-models" | "no-chat-model" | "no-fim";

export interface ConnectionReport {
  /** Chat and ghost text both work. */
  readonly ok: boolean;
  /** The server answers with this key (whatever it can do). */
  readonly answers: boolean;
  readonly problems: readonly ConnectionProblem[];
  /** One line a notification shows. */
  readonly headline: string;
  /** Each check on a line of its own, for the log and the notification's detail. */
  readonly lines: readonly string[];
  readonly chatModel?: string;
  readonly completionModel?: string;
  /** The ids the server lists (none when it did not answer). */
  readonly models: readonly string[];
}

const shownModels = 8;

export function connectionReport(probes: ConnectionProbes): ConnectionReport {
  const { baseUrl } = probes;
  if ("failed" in probes.models) return failedListing(baseUrl, probes.models.failed);
  const listed = probes.models.listed;
  if (listed.length === 0) {
    const headline = `${baseUrl} answers, but lists no models: the server has none loaded.`;
    return { ok: false, answers: true, problems: ["no-models"], headline, lines: [headline], models: [] };
  }
  const names = listed.slice(0, shownModels).map((m) => m.id).join(", ") + (listed.length > shownModels ? `, and ${listed.length - shownModels} more` : "");
  const lines = [`${baseUrl} answers and accepts the key.`, `Models (${listed.length}): ${names}.`];
  const problems: ConnectionProblem[] = [];
  const chat = chatLine(probes, listed);
  lines.push(chat.line);
  if (!chat.ok) problems.push("no-chat-model");
  const fim = fimLine(probes);
  lines.push(fim.line);
  if (!fim.ok) problems.push("no-fim");
  const ok = problems.length === 0;
  const headline = ok
    ? `Connected to ${baseUrl}: ${probes.chat!.model} answers in the chat, ${probes.fim!.model} writes ghost text.`
    : [chat, fim].filter((c) => !c.ok).map((c) => c.line).join(" ");
  return {
    ok,
    answers: true,
    problems,
    headline,
    lines,
    models: listed.map((m) => m.id),
    ...(chat.ok ? { chatModel: probes.chat!.model } : {}),
    ...(fim.ok ? { completionModel: probes.fim!.model } : {}),
  };
}

function failedListing(baseUrl: string, failure: ProbeFailure): ConnectionReport {
  const [problem, headline] = ((): [ConnectionProblem, string] => {
    switch (failure.kind) {
      case "no-key":
        return ["no-key", `No API key to send to ${baseUrl}: enter the key from the server's console (any text for a server without keys).`];
      case "bad-key":
        return ["bad-key", `${baseUrl} refused the key (401 Unauthorized): check the key, or ask the server's owner for one.`];
      case "forbidden":
        return ["bad-key", `${baseUrl} refused the key (403 Forbidden): the key may not list the models.`];
      case "unreachable":
      case "timeout":
        if (failure.status === 404) return ["unreachable", `${baseUrl} answers, but has no /models (404): the address should be the API root, usually ending in /v1.`];
        return ["unreachable", `Nothing answers at ${baseUrl}: is the server running, and is this its address?`];
      default:
        return ["unreachable", `${baseUrl} did not list its models.`];
    }
  })();
  return { ok: false, answers: false, problems: [problem], headline, lines: [headline, failure.message], models: [] };
}

function chatLine(probes: ConnectionProbes, listed: readonly ModelInfo[]): { ok: boolean; line: string } {
  if (probes.chat === undefined) {
    const kinds = [...new Set(listed.map((m) => m.kind ?? "text"))].join(" and ");
    return { ok: false, line: `No chat model: the server lists only ${kinds} models, none that answers in the chat.` };
  }
  const { model, failed } = probes.chat;
  if (failed === undefined) return { ok: true, line: `Chat: ${model} answers.` };
  return { ok: false, line: `No chat model: ${model} did not answer a chat request (${failed.message}).` };
}

function fimLine(probes: ConnectionProbes): { ok: boolean; line: string } {
  if (probes.fim === undefined) return { ok: false, line: "No FIM: no text model to fill in the middle, so no ghost text." };
  const { model, failed } = probes.fim;
  if (failed === undefined) return { ok: true, line: `Ghost text: ${model} fills in the middle.` };
  // A 404 that is not about the model: the route itself is missing.
  if (failed.status === 404 && failed.kind !== "unknown-model") return { ok: false, line: "No FIM: the server has no /v1/completions endpoint, so no ghost text (the chat does not need it)." };
  return { ok: false, line: `No FIM: ${model} did not fill in the middle (${failed.message}), so no ghost text.` };
}
