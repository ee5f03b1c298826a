// A TCP proxy in front of a server that can freeze: from then on no byte passes either way and no
// connection is closed, as on a path that died without a FIN or an RST (a failover, a NAT's idle
// timeout). New connections are still accepted, and go nowhere.
import net from "node:net";

export interface FreezableProxy {
  port: number;
  freeze(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(targetPort: number, host = "127.0.0.1"): Promise<FreezableProxy> {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const target = net.connect(targetPort, host);
    for (const [from, to] of [
      [client, target],
      [target, client],
    ] as const) {
      sockets.add(from);
      from.on("data", (chunk: Buffer) => {
        if (!frozen) to.write(chunk);
      });
      from.on("end", () => {
        if (!frozen) to.end();
      });
      from.on("error", () => undefined);
      from.on("close", () => {
        sockets.delete(from);
        if (!frozen) to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
