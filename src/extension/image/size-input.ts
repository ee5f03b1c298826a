import * as vscode from "vscode";
import { seedProblem, stepsProblem } from "../../core/image/image-request";
import { formatSize, leavesSideToModel, parseSize, sizeChoices, type ImageSize, type SizeChoice } from "../../core/image/image-size";
import type { ImageSettings } from "../settings";

/** What the size input is prefilled with when the settings leave the size to the model. */
const TYPED_SIZE: ImageSize = { width: 512, height: 512 };

/** The generation parameters besides the prompt and the model. */
export interface ImageParameters {
  readonly size: ImageSize;
  readonly negativePrompt: string;
  readonly steps: number;
  readonly seed: number;
  /** True when the user set the negative prompt, steps and seed in the advanced step. */
  readonly advanced: boolean;
}

type SizeItem = vscode.QuickPickItem & { readonly choice: ImageSize | "custom" | "advanced" };

/**
 * Asks for the size from the presets, a custom size, or the advanced step (size, negative
 * prompt, steps, seed); everything not asked comes from the settings. Undefined when dismissed.
 * Presets that are not sizes are passed to `onInvalidPresets`.
 */
export async function askParameters(
  title: string,
  settings: ImageSettings,
  onInvalidPresets: (invalid: readonly string[]) => void,
): Promise<ImageParameters | undefined> {
  const current = { width: settings.width, height: settings.height };
  const { choices, invalid } = sizeChoices(current, settings.sizePresets);
  if (invalid.length > 0) onInvalidPresets(invalid);
  const fromSettings = { negativePrompt: settings.negativePrompt, steps: settings.steps, seed: settings.seed, advanced: false };
  const items: SizeItem[] = [
    ...choices.map((c): SizeItem => ({ label: capitalized(formatSize(c.size)), description: description(c), choice: c.size })),
    { label: "", kind: vscode.QuickPickItemKind.Separator, choice: "custom" },
    { label: "Custom size…", description: "WIDTHxHEIGHT, multiples of 8", choice: "custom" },
    { label: "Advanced…", description: "size, negative prompt, steps and seed", choice: "advanced" },
  ];
  const seedText = settings.seed === -1 ? "random seed" : `seed ${settings.seed}`;
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: `Image size (${settings.steps} steps, ${seedText}${settings.negativePrompt ? ", with the negative prompt" : ""} from settings)`,
    ignoreFocusOut: true,
  });
  if (picked === undefined) return undefined;
  if (picked.choice === "custom") {
    const size = await askSize(title, typedFrom(choices));
    return size === undefined ? undefined : { size, ...fromSettings };
  }
  if (picked.choice === "advanced") return askAdvanced(title, typedFrom(choices), settings);
  return { size: picked.choice, ...fromSettings };
}

function description(choice: SizeChoice): string {
  if (choice.origin === "preset") return "preset";
  return leavesSideToModel(choice.size) ? "the server picks it (wisp.image.width × height: 0)" : "wisp.image.width × height";
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The first offered size with both sides set, to prefill a typed one. */
function typedFrom(choices: readonly SizeChoice[]): ImageSize {
  return choices.find((c) => !leavesSideToModel(c.size))?.size ?? TYPED_SIZE;
}

async function askSize(title: string, initial: ImageSize): Promise<ImageSize | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt: "Image size as WIDTHxHEIGHT, multiples of 8",
    value: `${initial.width}x${initial.height}`,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = parseSize(value);
      return "problem" in parsed ? parsed.problem : undefined;
    },
  });
  if (text === undefined) return undefined;
  const parsed = parseSize(text);
  return "size" in parsed ? parsed.size : undefined;
}

/** Size, negative prompt, steps and seed, one input each, prefilled from the settings. */
async function askAdvanced(title: string, initial: ImageSize, settings: ImageSettings): Promise<ImageParameters | undefined> {
  const size = await askSize(`${title} (1/4)`, initial);
  if (size === undefined) return undefined;
  const negativePrompt = await vscode.window.showInputBox({
    title: `${title} (2/4)`,
    prompt: "Negative prompt: what the image should not contain (may be empty)",
    value: settings.negativePrompt,
    ignoreFocusOut: true,
  });
  if (negativePrompt === undefined) return undefined;
  const steps = await askNumber(`${title} (3/4)`, "Denoising steps (more: slower, finer)", settings.steps, stepsProblem);
  if (steps === undefined) return undefined;
  const seed = await askNumber(`${title} (4/4)`, "Seed: -1 for a random one, or the seed of an image to make it again", settings.seed, seedProblem);
  if (seed === undefined) return undefined;
  return { size, negativePrompt: negativePrompt.trim(), steps, seed, advanced: true };
}

async function askNumber(title: string, prompt: string, initial: number, problem: (value: number) => string | undefined): Promise<number | undefined> {
  const parse = (text: string) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : Number.NaN);
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    value: String(initial),
    ignoreFocusOut: true,
    validateInput: (value) => problem(parse(value)),
  });
  return text === undefined ? undefined : parse(text);
}
