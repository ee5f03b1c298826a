/**
 * Which of the coder models (Qwen2.5-Coder 0.5B, 1.5B, 7B base, Q8_0) the local server should run
 * on this machine, from its memory, its cores and the GPU the bundled server can use. The bundled
 * server runs llama.cpp's CPU build everywhere except on Apple silicon (its Metal build): an NVIDIA
 * GPU is noted, not counted. Ghost text wants a first line in well under a second, so the 7B model
 * needs Metal or 8 cores beside its 10 GB of memory.
 */

export type GpuFact =
  | { readonly kind: "none" }
  /** Apple silicon: memory shared with the GPU, which the bundled server uses (Metal). */
  | { readonly kind: "apple-silicon" }
  /** Found by nvidia-smi; the bundled server does not use it. */
  | { readonly kind: "nvidia"; readonly name: string; readonly memoryBytes?: number };

export interface MachineFacts {
  readonly memoryBytes: number;
  readonly cores: number;
  readonly gpu: GpuFact;
}

export type CoderSize = "0.5b" | "1.5b" | "7b";

export interface Recommendation {
  readonly size: CoderSize;
  /** Why this size, as a user reads it: "8 GB of memory and 4 cores: …". */
  readonly why: string;
}

const GiB = 2 ** 30;
/** An "8 GB" machine reports a little less than 8 GiB, a "16 GB" one about 15.5. */
const smallBelowGiB = 7;
const largeFromGiB = 14.5;
const largeFromCores = 8;

export function recommendCoderModel(facts: MachineFacts): Recommendation {
  const gib = facts.memoryBytes / GiB;
  const metal = facts.gpu.kind === "apple-silicon";
  const memory = `${Math.round(gib)} GB of memory`;
  if (gib < smallBelowGiB) return { size: "0.5b", why: `${memory}: the 0.5B model leaves room for the editor and the rest` };
  if (facts.cores <= 2 && !metal) return { size: "0.5b", why: `${facts.cores} cores: the 0.5B model is the one that answers while you type` };
  if (gib >= largeFromGiB && metal) return { size: "7b", why: `${memory} shared with Apple silicon's GPU, which the local server uses: room and speed for the 7B model` };
  if (gib >= largeFromGiB && facts.cores >= largeFromCores) return { size: "7b", why: `${memory} and ${facts.cores} cores: room and speed for the 7B model` };
  if (gib >= largeFromGiB) return { size: "1.5b", why: `${memory} but ${facts.cores} cores: the 7B model would fit, but its ghost text would come late on the CPU` };
  return { size: "1.5b", why: `${memory} and ${facts.cores} cores: the 1.5B model fits and answers while you type` };
}

/** The machine in one line: "16 GB of memory, 8 cores, no GPU the local server uses". */
export function describeMachine(facts: MachineFacts): string {
  const parts = [`${Math.round(facts.memoryBytes / GiB)} GB of memory`, `${facts.cores} ${facts.cores === 1 ? "core" : "cores"}`];
  switch (facts.gpu.kind) {
    case "apple-silicon":
      parts.push("Apple silicon's GPU (Metal, used by the local server)");
      break;
    case "nvidia": {
      const memory = facts.gpu.memoryBytes ? ` (${Math.round(facts.gpu.memoryBytes / GiB)} GB)` : "";
      parts.push(`${facts.gpu.name}${memory}, which the bundled server does not use (a llama.cpp server built with CUDA can: Connect a Server)`);
      break;
    }
    case "none":
      parts.push("no GPU the local server uses");
      break;
  }
  return parts.join(", ");
}
