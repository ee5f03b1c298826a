// HAProxy from Debian's packages in front of wisp-server replicas, run with the very configuration
// file the deployment docs show (docs/team-server/haproxy.cfg), its addresses given in the
// environment as the docs say.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port";
import { spawnGroup, type GroupProcess } from "./process-group";
import { waitFor } from "./wait-for";

export const HAPROXY_CONFIG = join(import.meta.dirname, "..", "..", "docs", "team-server", "haproxy.cfg");

export interface Balancer {
  readonly origin: string;
  /** OpenAI-style base URL, ending in /v1. */
  readonly baseUrl: string;
  readonly port: number;
  output(): string;
  stop(): Promise<void>;
}

const haproxyBin = (): string => (existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : "haproxy");

/** Starts HAProxy on a free port in front of the three `replicas` (host:port), checking each every `checkMs`. */
export async function startBalancer(replicas: readonly string[], checkMs = 200): Promise<Balancer> {
  if (replicas.length !== 3) throw new Error("the configuration names three replicas");
  const port = await freePort();
  const env = {
    ...process.env,
    WISP_LISTEN: `127.0.0.1:${port}`,
    WISP_CHECK_MS: String(checkMs),
    ...Object.fromEntries(replicas.map((r, i) => [`WISP_REPLICA_${i + 1}`, r])),
  };
  let output = "";
  const group: GroupProcess = spawnGroup(haproxyBin(), ["-f", HAPROXY_CONFIG, "-db"], { env, stdio: ["ignore", "pipe", "pipe"] });
  group.child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  group.child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const balancer: Balancer = { origin, baseUrl: `${origin}/v1`, port, output: () => output, stop: () => group.stop(2000) };
  try {
    await waitFor(
      "HAProxy to answer /health through a replica",
      async () => {
        if (group.child.exitCode !== null) throw new Error(`haproxy exited (${group.child.exitCode}): ${output}`);
        return (await fetch(`${origin}/health`).catch(() => undefined))?.status;
      },
      (status) => status === 200,
      30_000,
    );
  } catch (error) {
    await balancer.stop();
    throw error;
  }
  return balancer;
}
