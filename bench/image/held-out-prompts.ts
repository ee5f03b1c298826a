// The image bench's prompts: each held-out combination of shapes.json (a shape colour, a shape and
// a background colour never drawn together in training), worded the ways the training captions
// word things, two wordings per combination.
import spec from "../../scripts/train/image/shapes.json";

export const PROMPT_KINDS = ["plain", "sized", "placed", "gradient", "terse"] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

export interface BenchPrompt {
  prompt: string;
  kind: PromptKind;
  colour: string;
  shape: string;
  background: string;
}

const SIZES = Object.keys(spec.sizes);
const PLACES = ["in the top left corner", "on the right", "at the bottom", "in the center", "at the top right"];

export function heldOutPrompts(): BenchPrompt[] {
  return promptsFor(spec.held_out);
}

/**
 * As many combinations drawn in training (none held out), worded the same ways: where settings
 * such as guidance are chosen, so that the held-out prompts stay the result.
 */
export function devPrompts(): BenchPrompt[] {
  const held = new Set(spec.held_out.map((c) => c.join("|")));
  const colours = Object.keys(spec.colours);
  const combos: string[][] = [];
  const perShape = Math.ceil(spec.held_out.length / spec.shapes.length);
  for (const [k, shape] of spec.shapes.entries()) {
    // Colours on two strides per shape, skipping same-colour and held-out combinations.
    for (let j = 0, taken = 0; j < colours.length && taken < perShape; j++) {
      const combo = [colours[(j * 5 + k) % colours.length]!, shape, colours[(j * 7 + 2 * k + 1) % colours.length]!];
      if (combo[0] !== combo[2] && !held.has(combo.join("|"))) combos.push(combo), taken++;
    }
  }
  return promptsFor(combos);
}

function promptsFor(combos: readonly (readonly string[])[]): BenchPrompt[] {
  return combos.flatMap(([colour, shape, background], i) =>
    [i % PROMPT_KINDS.length, (i + 2) % PROMPT_KINDS.length].map((k) => {
      const kind = PROMPT_KINDS[k]!;
      return { prompt: wording(kind, i, colour!, shape!, background!), kind, colour: colour!, shape: shape!, background: background! };
    }),
  );
}

function wording(kind: PromptKind, i: number, colour: string, shape: string, background: string): string {
  const thing = (words: string) => (shape === "stripes" ? words : `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`);
  switch (kind) {
    case "plain":
      return `${thing(`${colour} ${shape}`)} on a ${background} background`;
    case "sized":
      return `${thing(`${SIZES[i % SIZES.length]} ${colour} ${shape}`)} on a ${background} background`;
    case "placed":
      return `${thing(`${colour} ${shape}`)} ${PLACES[i % PLACES.length]} on a ${background} background`;
    case "gradient":
      return `${thing(`${colour} ${shape}`)} on a ${background} gradient background`;
    case "terse":
      return `${colour} ${shape}, ${background} background`;
  }
}
