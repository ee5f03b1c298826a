/** Small helpers to try completions on. */
export function add(a: number, b: number): number {
  return a + b;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function clamp(value: number, low: number, high: number): number {
