/**
 * Which steps of a sampling run classifier-free guidance (and so read the negative prompt):
 * every step without an interval; with one [low, high], the steps whose noise level sigma is
 * above low and at most high. When the interval holds none of the steps (a run of 1 or 2 steps
 * on a model guided only at middle noise levels), the step nearest to it is guided, so that the
 * negative prompt and the guidance scale still act on the picture. Nearest in log sigma: the
 * noise levels of a schedule are spread geometrically, not linearly.
 */
export function guidedSteps(sigmas: readonly number[], interval: readonly [number, number] | undefined): boolean[] {
  if (!interval) return sigmas.map(() => true);
  const [low, high] = interval;
  const guided = sigmas.map((sigma) => sigma > low && sigma <= high);
  if (guided.includes(true) || sigmas.length === 0) return guided;
  const distance = (sigma: number) => (sigma > high ? Math.log(sigma / high) : sigma > 0 ? Math.log(low / sigma) : Infinity);
  let nearest = 0;
  for (let step = 1; step < sigmas.length; step++) if (distance(sigmas[step]!) < distance(sigmas[nearest]!)) nearest = step;
  guided[nearest] = true;
  return guided;
}
