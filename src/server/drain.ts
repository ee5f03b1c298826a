// Stopping a server without losing what it is doing (SIGTERM, SIGINT). /ready fails first, so a
// balancer's health checks take the replica out while it still answers everything sent to it;
// after `drainDelayMs` the listener closes (no new connections), the requests in flight finish
// within `drainGraceMs`, then what is left is cut (as a client leaving would: each stops and
// records what it used), and the usage records still waiting are stored before the process exits.
// Without a database both times are 0: a stop is at once.
import type { FastifyInstance } from "fastify";
import { delay } from "../core/base/delay";
import type { ServerDeps } from "./deps";

/** How long stored usage may take at the end, beyond the grace period. */
const FLUSH_MS = 5_000;
/** How long cut requests may take to stop and report their usage. */
const CUT_MS = 5_000;

export async function drain(app: FastifyInstance, deps: ServerDeps, log: (line: string) => void): Promise<void> {
  const { lifecycle, config, store, usage } = deps;
  lifecycle.draining = true;
  if (config.drainDelayMs > 0 || config.drainGraceMs > 0) {
    log(`draining: /ready now fails; ${lifecycle.inFlight} requests in flight; new connections are taken for ${config.drainDelayMs / 1000} s more`);
    // The balancer's checks need this long to see /ready fail; until then requests still come.
    await delay(config.drainDelayMs);
  }
  app.server.close();
  const deadline = Date.now() + config.drainGraceMs;
  while (lifecycle.inFlight > 0 && Date.now() < deadline) await delay(20);
  if (lifecycle.inFlight > 0) {
    if (config.drainGraceMs > 0) log(`draining: ${lifecycle.inFlight} requests still running after ${config.drainGraceMs / 1000} s: ending them`);
    app.server.closeAllConnections();
  }
  // Cut requests report their usage as they stop, after their connections are gone: the flush
  // must come after that, and the store must still be open for it.
  const cutBy = Date.now() + CUT_MS;
  while ((lifecycle.inFlight > 0 || usage.unreported > 0) && Date.now() < cutBy) await delay(20);
  const unreported = usage.unreported;
  const unstored = await store.flush(FLUSH_MS);
  await app.close();
  const lost = unstored + unreported;
  log(lost === 0 ? "stopped" : `stopped: ${lost} usage records could not be stored (${unreported > 0 ? `${unreported} requests never reported theirs` : "the database is unavailable"}) and are lost`);
}
