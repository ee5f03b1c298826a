// One replica in the test's own process (buildApp, not bin/wisp-server.js), on a database of its
// own on the shared cluster, in front of the scripted engine: for suites that look inside it (its
// drain, its usage buffer). close() stops it, the engine and its folders.
import { buildApp, type BuildAppOptions, type BuiltApp } from "../../../src/server/app";
import type { PostgresCluster } from "../../harness/postgres-cluster";
import { TempDirs } from "../../harness/temp-dirs";
import { freshDatabase } from "./shared-cluster";
import { startEngine, UPSTREAM_KEY, type Engine } from "./team";

export interface InProcessReplica extends BuiltApp {
  origin: string;
  cluster: PostgresCluster;
  /** Its database's name on the cluster, and the URL it was given. */
  database: string;
  url: string;
  engine: Engine;
  close(): Promise<void>;
}

/** A replica whose one upstream is the engine's quick or slow server; `options` add to its configuration. */
export async function startInProcessReplica(upstream: "fast" | "slow", options: Partial<BuildAppOptions> = {}): Promise<InProcessReplica> {
  const temp = new TempDirs();
  const { cluster, name, url } = await freshDatabase();
  const engine = await startEngine(12, 0);
  const stop = async () => {
    await engine.process.stop();
    temp.removeAll();
  };
  try {
    const built = await buildApp({
      modelsDir: temp.make("models"),
      dataDir: temp.make("data"),
      localModels: false,
      database: url,
      upstreams: [{ name: upstream, baseUrl: engine[upstream], keyEnv: "ENGINE_KEY" }],
      env: { ENGINE_KEY: UPSTREAM_KEY },
      ...options,
    });
    const origin = await built.app.listen({ host: "127.0.0.1", port: 0 });
    // A drained replica is closed already: closing it again does nothing.
    return { ...built, origin, cluster, database: name, url, engine, close: async () => (await built.app.close(), await stop()) };
  } catch (error) {
    await stop();
    throw error;
  }
}
