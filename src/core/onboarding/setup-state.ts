/**
 * What stands between the user and a working chat, as the `wisp.setup` context key the chat's
 * welcome content reads (package.json viewsWelcome): nothing ("ok"), or what is wrong.
 */
import type { ModelInfo } from "../api/models";
import { chosenChatModel } from "../chat/chat-models";
import type { LocalServerState } from "../local-server/local-server-state";
import type { ConnectionState } from "../status/describe-status";
import { isEmbeddedModel } from "./embedded-models";

export type SetupState = "checking" | "starting" | "ok" | "unreachable" | "no-key" | "bad-key" | "error" | "no-chat-model";

/** The states the welcome content explains (the others show the chat). */
export const setupProblems: readonly SetupState[] = ["unreachable", "no-key", "bad-key", "error", "no-chat-model"];

export function setupState(connection: ConnectionState, localServer: LocalServerState, models: readonly ModelInfo[], chatSetting: string): SetupState {
  // A server on its way up is not a problem yet.
  if (localServer.kind === "starting" || localServer.kind === "restarting") return "starting";
  switch (connection.kind) {
    case "checking":
    case "unreachable":
    case "no-key":
    case "bad-key":
    case "error":
      return connection.kind;
    case "ready":
      return chosenChatModel(chatSetting, models) === "" ? "no-chat-model" : "ok";
  }
}

/** The server lists a text model that is not an embedded one: a model worth keeping is there. */
export function servesRealTextModel(models: readonly ModelInfo[]): boolean {
  return models.some((m) => (m.kind ?? "text") === "text" && !isEmbeddedModel(m));
}
