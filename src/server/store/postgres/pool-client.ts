// One connection of the pool for a few statements that belong together (a transaction, a
// session-level lock). A connection that failed is closed, not given back: it may still be inside
// the transaction or hold the lock.
import type { Pool, PoolClient } from "pg";

export async function withPoolClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection checked out of the pool has no error listener of the pool's: an error the server
  // sends while no statement runs (it shutting down, between two statements, or in the same packet
  // as the last one's end, before the await below goes on) would otherwise end the process.
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on("error", onError);
  try {
    return await work(client);
  } catch (error) {
    broken ??= error as Error;
    throw error;
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}
