// Refuses requests for Host names this server does not answer to (see core/net/host-allowed.ts):
// on every route, keyed or not, so that a rebinding page reads nothing.
import type { FastifyRequest } from "fastify";
import { hostAllowed, hostName } from "../core/net/host-allowed";
import type { ServerConfig } from "./deps";
import { ApiError } from "./errors";

/** Distinct names logged at most: a flood of made-up names must not flood the log. */
const maxLoggedNames = 100;

export class HostCheck {
  private readonly logged = new Set<string>();

  constructor(
    private readonly config: Pick<ServerConfig, "host" | "allowedHosts">,
    private readonly log: (message: string) => void,
  ) {}

  /** Whether the request names a Host this server does not answer to. */
  refuses(request: FastifyRequest): boolean {
    return !hostAllowed(request.headers.host, this.config.host, this.config.allowedHosts);
  }

  /** The onRequest hook. */
  readonly hook = async (request: FastifyRequest): Promise<void> => {
    if (!this.refuses(request)) return;
    const header = request.headers.host!;
    // Shortened: a header can be kilobytes long, and it goes into the log and the answer.
    const name = (hostName(header) ?? header).slice(0, 100);
    this.noteRefused(name);
    throw new ApiError(
      403,
      `Host '${name}' is not allowed: this server answers to localhost, IP addresses and the names --allowed-hosts lists (a guard against DNS rebinding); start it with --allowed-hosts ${name} (or WISP_ALLOWED_HOSTS=${name}) to allow this name`,
      "invalid_request_error",
      null,
      "host_not_allowed",
    );
  };

  private noteRefused(name: string): void {
    if (this.logged.has(name) || this.logged.size >= maxLoggedNames) return;
    this.logged.add(name);
    this.log(`refused a request for Host '${name}' (not localhost, an IP address or a name --allowed-hosts lists; further ones for it are not logged): if that name is meant to reach this server, start it with --allowed-hosts ${name}`);
    if (this.logged.size === maxLoggedNames) this.log(`refused requests for ${maxLoggedNames} different Host names: further names are not logged`);
  }
}
