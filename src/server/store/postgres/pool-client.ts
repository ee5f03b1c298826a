// One connection of the pool for a few statements that belong together (a transaction, a
// session-level lock). A connection that failed is closed, not given back: it may still be inside
// the transaction or hold the lock.
import type { Pool, PoolClient } from "pg";

export async function withPoolClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}
