// Logging in to the console of a team, as a browser does: its address is the balancer's, so
// every request carries the balancer's Host (HAProxy passes it on) whichever replica answers.
import assert from "node:assert/strict";
import { rawRequest as send } from "../../harness/raw-request";
import type { Replica, Team } from "./team";

/** The admin token, as the replica that made it printed it. */
export const adminToken = (team: Team): string => /login\?token=(wisp-admin-[\w-]+)/.exec(team.replicas.map((r) => r.output()).join("\n"))![1]!;

/** The Host of the browser's requests. */
export const browserHost = (team: Team): string => `127.0.0.1:${team.balancer.port}`;

/**
 * A console session made by opening `path` (default: the admin token's login address) through
 * `via` (a replica, or the balancer), usable on any replica.
 */
export async function consoleLogin(team: Team, via?: Replica, path = `/login?token=${adminToken(team)}`) {
  const host = browserHost(team);
  const login = await send(via?.origin ?? team.balancer.origin, path, { headers: { host } });
  assert.equal(login.status, 303, `the login through ${via?.name ?? "the balancer"} opens the console, not: ${login.text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim()}`);
  const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
  assert.match(cookie, new RegExp(`^wisp_console_${team.balancer.port}=`));
  const headers = { cookie, host, origin: `http://${host}`, "content-type": "application/json" };
  const session = await send(team.balancer.origin, "/console/api/session", { headers });
  assert.equal(session.status, 200, "the session works through the balancer");
  const { csrf_token: csrf } = (await session.json()) as { csrf_token: string };
  return {
    csrf,
    get: (r: Replica, path: string) => send(r.origin, path, { headers }),
    post: (r: Replica, path: string, body: unknown) => send(r.origin, path, { method: "POST", headers: { ...headers, "x-wisp-csrf": csrf }, body: JSON.stringify(body) }),
  };
}
