// Lines typed by the ghost-latency benchmark with a human rhythm (seeded, the same every run):
// keys 40-200 ms apart, and hesitations of 300-900 ms after some of the words (after the space or
// the operator that ends them), a few inside words, and at the end of each line.

export interface TypedLine {
  readonly keys: string;
  /** The gap after each key (ms); the last one is the pause at the end of the line. */
  readonly gapsMs: readonly number[];
}

/** A gap this long or longer is a hesitation: ghost text is measured there. */
export const hesitationMinMs = 300;
const hesitationMaxMs = 900;
const keyGapMs = { min: 40, max: 200 };
/** The share of spaces followed by a hesitation, and of letters followed by another letter. */
const hesitateAfterSpace = 0.4;
const hesitateInWord = 0.05;

const texts = [
  "const total = price * count + shipping;",
  "let remaining = budget - spent;",
  "const average = sum / values;",
  "let nextIndex = index + step;",
  "const label = prefix + name;",
  "const scaled = width * factor;",
  "let offset = start + length;",
  "const area = width * height;",
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

/** `count` lines (the texts in turn), each with its own rhythm. */
export function typedLines(count: number, seed = 10): TypedLine[] {
  const random = seeded(seed);
  const between = (min: number, max: number) => min + Math.round((max - min) * random());
  return Array.from({ length: count }, (_, n) => {
    const keys = texts[n % texts.length]!;
    const gapsMs = [...keys].map((ch, i) => {
      const share = ch === " " ? hesitateAfterSpace : inWord(keys, i) ? hesitateInWord : 0;
      const hesitate = i === keys.length - 1 || random() < share;
      return hesitate ? between(hesitationMinMs, hesitationMaxMs) : between(keyGapMs.min, keyGapMs.max);
    });
    return { keys, gapsMs };
  });
}

/** The key at `i` and the next one are letters: a hesitation there is inside a word. */
export function inWord(keys: string, i: number): boolean {
  return /\w\w/.test(keys.slice(i, i + 2));
}
