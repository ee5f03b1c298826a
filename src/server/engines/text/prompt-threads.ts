/**
 * Threads for prompt evaluation on a machine with `cores` logical cores: half of them (an editor
 * and its language servers share the machine), at most 8, and 1 below 4 cores. On 2 cores, 2
 * prompt threads evaluated a 500-token prompt 1.81x as fast when the other core was free and
 * 0.79x as fast when another process kept it busy: ggml's threads wait for each other at every
 * step, so one that loses its core stalls the rest.
 */
export function defaultPromptThreads(cores: number): number {
  return cores < 4 ? 1 : Math.min(8, Math.floor(cores / 2));
}
