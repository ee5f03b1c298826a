/**
 * Fill-in-the-middle prompt formats, as data. Placeholders: {prefix} {suffix} {extras}; extra
 * chunks use {path} {text}, the header {repo}. A template without `extraChunk` gets extra context as
 * line comments at the start of the prefix (see extras.ts).
 */
export interface FimTemplate {
  readonly id: string;
  /** Model ids this family is recognised by in `auto` mode. */
  readonly modelPattern?: RegExp;
  readonly prompt: string;
  /** The server applies the FIM format itself: send `suffix` as its own field. */
  readonly sendsSuffix?: boolean;
  /** Repo-level layout of extra files, for families trained with file separators. */
  readonly extraHeader?: string;
  readonly extraChunk?: string;
  /** Announces the current file after the extra ones. */
  readonly extraFooter?: string;
  readonly stop: readonly string[];
}

// Stop lists put the likeliest first: OpenAI-style servers take at most 4 stop sequences, so only
// the first few are sent; the pipeline applies the whole list to the stream itself.
const starcoderSpecial = ["<|endoftext|>", "<fim_prefix>", "<fim_suffix>", "<fim_middle>"];

export const fimTemplates: readonly FimTemplate[] = [
  {
    id: "qwen",
    modelPattern: /qwen[^/]*coder|coder[^/]*qwen/i,
    prompt: "{extras}<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>",
    extraHeader: "<|repo_name|>{repo}\n",
    extraChunk: "<|file_sep|>{path}\n{text}\n",
    extraFooter: "<|file_sep|>{path}\n",
    stop: ["<|endoftext|>", "<|file_sep|>", "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<|fim_pad|>", "<|repo_name|>", "<|im_start|>", "<|im_end|>"],
  },
  {
    id: "codellama",
    modelPattern: /code-?llama/i,
    prompt: "<PRE> {extras}{prefix} <SUF>{suffix} <MID>",
    stop: ["<EOT>", "</s>", "<PRE>", "<SUF>", "<MID>"],
  },
  {
    id: "deepseek",
    modelPattern: /deepseek[^/]*coder/i,
    prompt: "<｜fim▁begin｜>{extras}{prefix}<｜fim▁hole｜>{suffix}<｜fim▁end｜>",
    stop: ["<｜end▁of▁sentence｜>", "<|EOT|>", "<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>"],
  },
  {
    id: "starcoder",
    modelPattern: /starcoder/i,
    prompt: "{extras}<fim_prefix>{prefix}<fim_suffix>{suffix}<fim_middle>",
    extraHeader: "<repo_name>{repo}",
    extraChunk: "<file_sep>{path}\n{text}\n",
    extraFooter: "<file_sep>{path}\n",
    stop: ["<|endoftext|>", "<file_sep>", "<fim_prefix>", "<fim_suffix>", "<fim_middle>", "<repo_name>"],
  },
  {
    id: "codestral",
    modelPattern: /codestral/i,
    // Suffix first: typing at the cursor leaves it unchanged, so the prompt still grows at its end.
    prompt: "[SUFFIX]{suffix}[PREFIX]{extras}{prefix}",
    stop: ["</s>", "[PREFIX]", "[SUFFIX]", "[MIDDLE]"],
  },
  {
    id: "codegemma",
    modelPattern: /codegemma/i,
    prompt: "<|fim_prefix|>{extras}{prefix}<|fim_suffix|>{suffix}<|fim_middle|>",
    stop: ["<|file_separator|>", "<eos>", "<end_of_turn>", "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>"],
  },
  {
    id: "granite",
    modelPattern: /granite[^/]*code/i,
    prompt: "<fim_prefix>{extras}{prefix}<fim_suffix>{suffix}<fim_middle>",
    stop: [...starcoderSpecial, "<fim_pad>", "<filename>"],
  },
  {
    id: "stable-code",
    modelPattern: /stable-?code/i,
    prompt: "<fim_prefix>{extras}{prefix}<fim_suffix>{suffix}<fim_middle>",
    stop: starcoderSpecial,
  },
  {
    id: "server",
    prompt: "{extras}{prefix}",
    sendsSuffix: true,
    stop: [],
  },
];

/**
 * Special tokens of the common code model families, never code: a server that applies the FIM
 * format itself (the server template), or a model that is not the family its name suggests, may
 * write them as text, and what follows (another file after <file_sep>, a chat turn) is no
 * suggestion. Tokens that can be text in a file (</s>, <eos>, [PREFIX]) are not among them.
 */
export const specialTokens: readonly string[] = [
  "<|endoftext|>", "<|im_end|>", "<|im_start|>", "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<|fim_pad|>", "<|file_sep|>", "<|repo_name|>",
  "<fim_prefix>", "<fim_suffix>", "<fim_middle>", "<fim_pad>", "<file_sep>", "<repo_name>", "<|file_separator|>",
  "<|EOT|>", "<｜end▁of▁sentence｜>", "<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>", "<|eot_id|>", "<|end_of_text|>",
];

/** What the stream is cut at: the template's stop list, then the special tokens of every family. */
export function streamStops(template: FimTemplate): string[] {
  return [...new Set([...template.stop, ...specialTokens])];
}

export const templateIds: readonly string[] = fimTemplates.map((t) => t.id);

const serverTemplate = fimTemplates.find((t) => t.id === "server") as FimTemplate;

/**
 * `auto` lets the server apply the model's own FIM tokens where it says it does (`serverFim`: it read
 * them from the model file, so they are right even for a family this list does not know); otherwise
 * it picks the family from the model id, and lets the server try when none matches. An unknown name
 * is an error, so that a typo in the setting is reported rather than silently ignored.
 */
export function selectTemplate(setting: string, modelId: string, serverFim = false): FimTemplate {
  const name = setting.trim().toLowerCase();
  if (name === "" || name === "auto") {
    if (serverFim) return serverTemplate;
    return fimTemplates.find((t) => t.modelPattern?.test(modelId)) ?? serverTemplate;
  }
  const byName = fimTemplates.find((t) => t.id === name);
  if (!byName) throw new UnknownTemplateError(setting);
  return byName;
}

export class UnknownTemplateError extends Error {
  override readonly name = "UnknownTemplateError";
  readonly kind = "unknown-template";
  constructor(setting: string) {
    super(`Unknown completion template "${setting}". Use auto, ${templateIds.join(", ")}.`);
  }
}

/** Fills {name} placeholders in one pass, so text that itself contains "{suffix}" stays as it is. */
export function fillTemplate(format: string, values: Readonly<Record<string, string>>): string {
  return format.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
