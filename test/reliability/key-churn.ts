// Run as a child process by key-store.test.ts: creates and revokes keys in a loop, printing each
// change once it has returned, until it is killed.
import { KeyStore } from "../../src/server/auth/key-store";

const store = new KeyStore(process.argv[2]!);
let previous: string | undefined;
for (let i = 0; ; i++) {
  const { key, secret } = await store.create(`churn-${i}`);
  process.stdout.write(`${JSON.stringify({ created: key.id, secret })}\n`);
  if (previous) {
    await store.revoke(previous);
    process.stdout.write(`${JSON.stringify({ revoked: previous })}\n`);
  }
  previous = key.id;
}
