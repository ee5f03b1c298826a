import type { ChatStorage } from "../../../../src/core/chat/chat-store";

/** workspaceState as a map, JSON round-tripped like VS Code stores it. */
export class MemoryStorage implements ChatStorage {
  readonly data = new Map<string, string>();
  writes = 0;

  get(key: string): unknown {
    const raw = this.data.get(key);
    return raw === undefined ? undefined : JSON.parse(raw);
  }

  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

/** Sequential ids and a clock that moves 1 ms per call: deterministic stores. */
export function counters(): { newId: () => string; now: () => number } {
  let id = 0;
  let time = 1_700_000_000_000;
  return { newId: () => `id-${++id}`, now: () => ++time };
}
