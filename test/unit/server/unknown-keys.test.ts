import assert from "node:assert/strict";
import type { FastifyRequest } from "fastify";
import { authenticator, type KeyVerifier } from "../../../src/server/auth/authenticate";
import type { KeyInfo } from "../../../src/server/auth/key-records";
import { UnknownKeys } from "../../../src/server/auth/unknown-keys";
import { delay } from "../../../src/core/base/delay";
import { ApiError, StoreUnavailableError } from "../../../src/server/errors";
import { settableTimeOfDay } from "../../harness/settable-time-of-day";

const GOOD: KeyInfo = { id: "key_good", name: "good", prefix: "wisp-good", created: 1 };

/** A key store that counts its lookups (each a database query in team mode). */
function countingStore(valid = new Set(["wisp-good"])) {
  const store = {
    lookups: 0,
    down: false,
    valid,
    async verify(secret: string): Promise<KeyInfo | undefined> {
      store.lookups++;
      if (store.down) throw new StoreUnavailableError("the database is away");
      return store.valid.has(secret) ? { ...GOOD, prefix: secret.slice(0, 9) } : undefined;
    },
  } satisfies KeyVerifier & Record<string, unknown>;
  return store;
}

const requestWith = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as unknown as FastifyRequest;

async function status(check: (request: FastifyRequest) => Promise<void>, token: string): Promise<number> {
  try {
    await check(requestWith(token));
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    if (error instanceof StoreUnavailableError) return 503;
    throw error;
  }
}

describe("unknown bearer tokens (authenticator with UnknownKeys)", () => {
  let now = 1_000_000;
  const clock = () => now;

  it("asks the key store once for a token retried 50 times within the TTL, and again after it", async () => {
    const store = countingStore();
    const check = authenticator([store], new UnknownKeys({ ttlMs: 5_000, now: clock }));
    for (let i = 0; i < 50; i++) assert.equal(await status(check, "wisp-revoked-in-every-editor"), 401);
    assert.equal(store.lookups, 1);
    now += 5_000;
    assert.equal(await status(check, "wisp-revoked-in-every-editor"), 401);
    assert.equal(store.lookups, 2, "asked again once the TTL passed");
  });

  it("lets a key created after a refusal in at once, and asks the store for every valid key's request", async () => {
    const store = countingStore();
    const check = authenticator([store], new UnknownKeys({ now: clock }));
    assert.equal(await status(check, "wisp-made-later"), 401);
    store.valid.add("wisp-created-now");
    assert.equal(await status(check, "wisp-created-now"), 200);
    assert.equal(await status(check, "wisp-good"), 200);
    assert.equal(await status(check, "wisp-good"), 200);
    assert.equal(store.lookups, 4);
  });

  it("remembers nothing when the store could not tell (503), and at most `capacity` tokens", async () => {
    const store = countingStore();
    const check = authenticator([store], new UnknownKeys({ capacity: 2, now: clock }));
    store.down = true;
    assert.equal(await status(check, "wisp-while-down"), 503);
    store.down = false;
    assert.equal(await status(check, "wisp-while-down"), 401, "asked once the store is back");
    assert.equal(store.lookups, 2);
    for (const token of ["wisp-a", "wisp-b", "wisp-c"]) await status(check, token);
    assert.equal(store.lookups, 5);
    assert.equal(await status(check, "wisp-c"), 401);
    assert.equal(store.lookups, 5, "the newest is remembered");
    assert.equal(await status(check, "wisp-while-down"), 401);
    assert.equal(store.lookups, 6, "the oldest was let go");
  });

  describe("when the system clock is set back (NTP, a laptop waking)", () => {
    const clockSet = settableTimeOfDay();

    it("asks the store again once `ttlMs` has passed", async () => {
      const store = countingStore();
      const check = authenticator([store], new UnknownKeys({ ttlMs: 20 }));
      assert.equal(await status(check, "wisp-imported-later"), 401);
      clockSet.shift(-3_600_000);
      store.valid.add("wisp-imported-later");
      await delay(40);
      assert.equal(await status(check, "wisp-imported-later"), 200, "not refused for the hour the clock went back");
    });
  });
});
