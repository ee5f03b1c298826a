/** Polls `read` until `accept` holds, failing with the last value seen after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
