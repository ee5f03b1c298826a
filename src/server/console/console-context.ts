// What the console's routes share.
import type { ServerDeps } from "../deps";
import type { UsageLog } from "../usage/usage-log";
import type { AdminToken } from "./admin-token";
import type { ConsoleAsset } from "./console-assets";
import type { ConsoleSession, SessionStore } from "./sessions";

declare module "fastify" {
  interface FastifyRequest {
    /** The console session of a request that passed the session check. */
    consoleSession: ConsoleSession | null;
  }
}

export interface ConsoleContext {
  deps: ServerDeps;
  admin: AdminToken;
  sessions: SessionStore;
  usage: UsageLog;
  /** Undefined when the console was not built: its pages then answer 503. */
  assets: Map<string, ConsoleAsset> | undefined;
}
