// Lines typed in bursts by the latency benchmark: keys 40-60 ms apart (seeded, the same every run).
// Each ends with "= " so that no word is half-typed at the pause (no suggest widget in the way).

export interface Burst {
  readonly keys: string;
  /** The gap after each key (ms). */
  readonly gapsMs: readonly number[];
}

const texts = [
  "const total = ",
  "let counter = ",
  "const scaled = ",
  "let nextIndex = ",
  "const label = ",
  "let average = ",
  "const first = ",
  "let remaining = ",
];

/** mulberry32: a small seeded generator. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seeded(10);
export const lines: readonly Burst[] = texts.map((keys) => ({ keys, gapsMs: [...keys].map(() => 40 + Math.round(20 * random())) }));
