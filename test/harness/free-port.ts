import { createServer } from "node:net";

/** Below the ports the system hands out itself (Linux 32768-60999, macOS and Windows 49152-65535). */
const [lowest, highest] = [20_000, 32_767];
const given = new Set<number>();

/**
 * A loopback TCP port that was free a moment ago, for a process that binds it later. Not one
 * listen(0) picks: every listen(0) on the machine (servers of this process and of others) could
 * take that one before its owner binds it, as 1 in about 10,000 did in a test of it. Never the same
 * port twice in this process.
 */
export async function freePort(): Promise<number> {
  for (let tries = 1; ; tries++) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest + 1));
    if (!given.has(port) && (await bindable(port))) {
      given.add(port);
      return port;
    }
    if (tries === 100) throw new Error(`no free loopback port in ${lowest}-${highest} after ${tries} tries`);
  }
}

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((done) => {
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}
