// What the console's routes share.
import type { ServerDeps } from "../deps";
import type { ConsoleSession } from "../store/console-sessions";
import type { ConsoleAsset } from "./console-assets";

declare module "fastify" {
  interface FastifyRequest {
    /** The console session of a request that passed the session check. */
    consoleSession: ConsoleSession | null;
  }
}

export interface ConsoleContext {
  /** Sessions, admin tokens, keys and usage come from deps.store. */
  deps: ServerDeps;
  /** Undefined when the console was not built: its pages then answer 503. */
  assets: Map<string, ConsoleAsset> | undefined;
}
