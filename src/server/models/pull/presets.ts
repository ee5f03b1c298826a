// Recommended models, as data. Every repository and file name here is one that llama.cpp's own source
// names (common/arg.cpp's --fim-* presets, its backend docs), or for the next-edit models one that
// their publisher's own plugin downloads (Sweep's JetBrains plugin, LocalAutocompleteServerManager), so none is guessed. No publisher
// states a SHA-256 in those places: the first download's hash is recorded instead (see checksums.ts).
// Sizes and memory are estimates from the parameter count and the quantisation, rounded; the
// download shows the exact size the server reports.

export type PresetRole = "completion" | "chat" | "next-edit";

export interface ModelPreset {
  /** What `wisp-server models pull NAME` takes. */
  readonly name: string;
  readonly role: PresetRole;
  readonly description: string;
  /** Hub repository and file: the download is {host}/{repo}/resolve/main/{file}. */
  readonly repo: string;
  readonly file: string;
  /** Approximate download size in bytes. */
  readonly approxBytes: number;
  /** Approximate memory to run it with a few thousand tokens of context, in GB. */
  readonly ramGb: number;
  readonly licence: string;
  /** The published file's SHA-256, only with the address where it was read. */
  readonly sha256?: { readonly value: string; readonly source: string };
}

const GB = 1e9;

export const modelPresets: readonly ModelPreset[] = [
  {
    name: "qwen2.5-coder-0.5b",
    role: "completion",
    description: "Qwen2.5-Coder 0.5B base, Q8_0: fastest completions, weakest",
    repo: "ggml-org/Qwen2.5-Coder-0.5B-Q8_0-GGUF",
    file: "qwen2.5-coder-0.5b-q8_0.gguf",
    approxBytes: 0.53 * GB,
    ramGb: 1,
    licence: "Apache-2.0",
  },
  {
    name: "qwen2.5-coder-1.5b",
    role: "completion",
    description: "Qwen2.5-Coder 1.5B base, Q8_0: the recommended start for completions on a laptop",
    repo: "ggml-org/Qwen2.5-Coder-1.5B-Q8_0-GGUF",
    file: "qwen2.5-coder-1.5b-q8_0.gguf",
    approxBytes: 1.65 * GB,
    ramGb: 2.5,
    licence: "Apache-2.0",
  },
  {
    name: "qwen2.5-coder-3b",
    role: "completion",
    description: "Qwen2.5-Coder 3B base, Q8_0",
    repo: "ggml-org/Qwen2.5-Coder-3B-Q8_0-GGUF",
    file: "qwen2.5-coder-3b-q8_0.gguf",
    approxBytes: 3.3 * GB,
    ramGb: 4.5,
    licence: "Qwen Research License (non-commercial)",
  },
  {
    name: "qwen2.5-coder-7b",
    role: "completion",
    description: "Qwen2.5-Coder 7B base, Q8_0: better completions, wants a fast machine",
    repo: "ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF",
    file: "qwen2.5-coder-7b-q8_0.gguf",
    approxBytes: 8.1 * GB,
    ramGb: 10,
    licence: "Apache-2.0",
  },
  {
    name: "qwen2.5-coder-14b",
    role: "completion",
    description: "Qwen2.5-Coder 14B base, Q8_0: the largest completion model here",
    repo: "ggml-org/Qwen2.5-Coder-14B-Q8_0-GGUF",
    file: "qwen2.5-coder-14b-q8_0.gguf",
    approxBytes: 15.7 * GB,
    ramGb: 18,
    licence: "Apache-2.0",
  },
  {
    name: "sweep-next-edit-0.5b",
    role: "next-edit",
    description: "Sweep Next-Edit 0.5B, Q8_0: predicts the next edit in Sweep's format (wisp.nextEdit.model)",
    repo: "sweepai/sweep-next-edit-0.5B",
    file: "sweep-next-edit-0.5b.q8_0.gguf",
    approxBytes: 0.53 * GB,
    ramGb: 1,
    licence: "Apache-2.0",
  },
  {
    name: "sweep-next-edit-1.5b",
    role: "next-edit",
    description: "Sweep Next-Edit 1.5B, Q8_0: better next edits, about 3x the work per suggestion",
    repo: "sweepai/sweep-next-edit-1.5B",
    file: "sweep-next-edit-1.5b.q8_0.v2.gguf",
    approxBytes: 1.54 * GB,
    ramGb: 2.5,
    licence: "Apache-2.0",
  },
  {
    name: "qwen3-0.6b",
    role: "chat",
    description: "Qwen3 0.6B instruct, Q8_0: tiny chat model, quick answers",
    repo: "ggml-org/Qwen3-0.6B-GGUF",
    file: "Qwen3-0.6B-Q8_0.gguf",
    approxBytes: 0.64 * GB,
    ramGb: 1.5,
    licence: "Apache-2.0",
  },
  {
    name: "llama-3.2-1b-instruct",
    role: "chat",
    description: "Llama 3.2 1B Instruct, Q4_K_M: small chat model",
    repo: "bartowski/Llama-3.2-1B-Instruct-GGUF",
    file: "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
    approxBytes: 0.81 * GB,
    ramGb: 1.5,
    licence: "Llama 3.2 Community License",
  },
  {
    name: "llama-3.2-3b-instruct",
    role: "chat",
    description: "Llama 3.2 3B Instruct, Q4_0: a capable chat model for most laptops",
    repo: "bartowski/Llama-3.2-3B-Instruct-GGUF",
    file: "Llama-3.2-3B-Instruct-Q4_0.gguf",
    approxBytes: 1.9 * GB,
    ramGb: 3,
    licence: "Llama 3.2 Community License",
  },
  {
    name: "qwen3-coder-30b-a3b-instruct",
    role: "chat",
    description: "Qwen3-Coder 30B-A3B Instruct, Q8_0: strong coding chat (mixture of experts), needs a big machine",
    repo: "ggml-org/Qwen3-Coder-30B-A3B-Instruct-Q8_0-GGUF",
    file: "qwen3-coder-30b-a3b-instruct-q8_0.gguf",
    approxBytes: 32.5 * GB,
    ramGb: 36,
    licence: "Apache-2.0",
  },
];

export function findPreset(name: string, presets: readonly ModelPreset[] = modelPresets): ModelPreset | undefined {
  const wanted = name.trim().toLowerCase();
  return presets.find((p) => p.name === wanted);
}
