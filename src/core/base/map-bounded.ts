/**
 * `fn` over every item, at most `limit` running at once, the results in the items' order. Many
 * file reads started together each hold a descriptor: past the process's limit (1024 on Linux
 * by default, the editor's own files included) they fail with EMFILE.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
