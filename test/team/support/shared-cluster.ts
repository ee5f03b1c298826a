// One PostgreSQL cluster for every team suite that runs in this process (initdb and a start take
// seconds): each suite works in databases of its own, and the cluster is stopped and removed when
// the process exits, whichever suites ran.
import { PostgresCluster } from "../../harness/postgres-cluster";

let shared: Promise<PostgresCluster> | undefined;
let databases = 0;

export function sharedCluster(): Promise<PostgresCluster> {
  shared ??= PostgresCluster.start().then((cluster) => {
    process.once("exit", () => cluster.destroySync());
    return cluster;
  });
  return shared;
}

/** A new empty database on the shared cluster: its name and wisp-server's URL for it. */
export async function freshDatabase(): Promise<{ cluster: PostgresCluster; name: string; url: string }> {
  const cluster = await sharedCluster();
  const name = `wisp_${++databases}`;
  return { cluster, name, url: await cluster.createDatabase(name) };
}
