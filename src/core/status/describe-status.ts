import { describeLocalServer, type LocalServerState } from "../local-server/local-server-state";
import { noBundledServerLine } from "../local-server/no-bundled-server";
import { embeddedModelsLine } from "../onboarding/embedded-models";

/** What the status bar knows; the text and tooltip are derived from it, never stored. */
export type ConnectionState =
  | { kind: "checking" }
  | { kind: "ready"; modelCount: number }
  | { kind: "no-key" }
  | { kind: "bad-key"; message: string }
  | { kind: "unreachable"; message: string }
  | { kind: "error"; message: string };

export type KeySource = "secret" | "env" | "none" | "unreadable";

export interface StatusInput {
  readonly connection: ConnectionState;
  readonly completionsEnabled: boolean;
  /** False where editor.inlineSuggest.enabled is off (for the active editor's language): the editor shows no ghost text by itself. */
  readonly editorShowsGhostText?: boolean;
  readonly keySource: KeySource;
  /** Why the secret store could not be read, when keySource is "unreadable". */
  readonly keyProblem?: string;
  readonly baseUrl: string;
  /** A completion request is in flight. */
  readonly busy: boolean;
  readonly lastLatencyMs?: number;
  /** The last request error, shown until a request succeeds again. */
  readonly lastError?: string;
  /** How completion requests ended this session, by outcome (shown, cache, debounced, ...). */
  readonly outcomes?: Readonly<Record<string, number>>;
  /** The local server this window runs, if any. */
  readonly localServer?: LocalServerState;
  /** False in the universal package: no local server can run from it (and no command is set). */
  readonly localServerAvailable?: boolean;
  /** The server lists only the embedded models (see core/onboarding/embedded-models). */
  readonly embeddedOnly?: boolean;
}

export type StatusState = "checking" | "starting" | "ready" | "busy" | "off" | "no-key" | "bad-key" | "unreachable" | "error";

export interface StatusView {
  readonly state: StatusState;
  readonly text: string;
  readonly tooltip: string;
}

const keySourceText: Record<Exclude<KeySource, "unreadable">, string> = {
  secret: "API key: from the secret store (Wisp: Set API Key)",
  env: "API key: from the WISP_API_KEY environment variable",
  none: "API key: none (run Wisp: Set API Key)",
};

function keyLine(source: KeySource, problem: string | undefined): string {
  if (source !== "unreadable") return keySourceText[source];
  return `API key: the secret store could not be read (${problem ?? "no reason given"}); requests go without the stored key (Wisp: Show Logs)`;
}

export function describeStatus(input: StatusInput): StatusView {
  const { state, text, detail } = headline(input);
  const lines = [`Wisp: ${detail}`, `Server: ${input.baseUrl}`, keyLine(input.keySource, input.keyProblem)];
  const local = input.localServer === undefined ? undefined : describeLocalServer(input.localServer);
  if (local !== undefined) lines.push(local);
  else if (input.localServerAvailable === false) lines.push(noBundledServerLine);
  lines.push(`Completions: ${completionsLine(input)}`);
  if (input.lastLatencyMs !== undefined) lines.push(`Last completion: ${Math.round(input.lastLatencyMs)} ms`);
  const outcomes = Object.entries(input.outcomes ?? {}).filter(([, n]) => n > 0);
  if (outcomes.length > 0) lines.push(`This session: ${outcomes.map(([kind, n]) => `${n} ${kind}`).join(", ")}`);
  if (input.embeddedOnly && input.connection.kind === "ready") lines.push(`Models: only ${embeddedModelsLine}. Download a model or connect a server: Wisp: Get Started`);
  lines.push("Click for Wisp commands");
  return { state, text, tooltip: lines.join("\n") };
}

function completionsLine(input: StatusInput): string {
  if (!input.completionsEnabled) return "off";
  // Wisp's toggle alone would say on, while the editor never asks for ghost text by itself.
  if (input.editorShowsGhostText === false) return "on, but editor.inlineSuggest.enabled is off here: the editor shows no ghost text by itself (Wisp: Trigger Completion asks for one)";
  return "on";
}

function headline(input: StatusInput): { state: StatusState; text: string; detail: string } {
  const c = input.connection;
  // While it starts, what the local server is doing says more than the last connection check.
  const local = input.localServer;
  if (local?.kind === "starting") return { state: "starting", text: "$(sync~spin) Wisp: starting server", detail: "starting the local server…" };
  if (local?.kind === "restarting") {
    return { state: "starting", text: "$(sync~spin) Wisp: restarting server", detail: `the local server ${local.lastExit}; restarting (${local.attempt} of ${local.max})` };
  }
  if (local?.kind === "failed" && c.kind !== "ready") return { state: "error", text: "$(error) Wisp: server stopped", detail: local.message };
  switch (c.kind) {
    case "no-key":
      return { state: "no-key", text: "$(key) Wisp: no API key", detail: "no API key set" };
    case "bad-key":
      return { state: "bad-key", text: "$(key) Wisp: key rejected", detail: c.message };
    case "unreachable":
      return { state: "unreachable", text: "$(debug-disconnect) Wisp: unreachable", detail: c.message };
    case "error":
      return { state: "error", text: "$(warning) Wisp: error", detail: c.message };
    case "checking":
      return { state: "checking", text: "$(sync~spin) Wisp", detail: "connecting…" };
    case "ready":
      break;
  }
  if (input.lastError !== undefined) return { state: "error", text: "$(warning) Wisp: error", detail: input.lastError };
  if (!input.completionsEnabled) return { state: "off", text: "$(circle-slash) Wisp", detail: "ready, completions off" };
  if (input.busy) return { state: "busy", text: "$(loading~spin) Wisp", detail: "completing…" };
  const latency = input.lastLatencyMs === undefined ? "" : ` ${Math.round(input.lastLatencyMs)}ms`;
  // Said where the eye lands: everything works, on models too small to keep.
  if (input.embeddedOnly) return { state: "ready", text: `$(sparkle) Wisp${latency} · tiny models`, detail: `ready, on the tiny embedded models only (${c.modelCount})` };
  return { state: "ready", text: `$(sparkle) Wisp${latency}`, detail: `ready (${c.modelCount} models)` };
}
