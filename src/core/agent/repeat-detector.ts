/**
 * Notices a model stuck calling the same tool with the same arguments over and over, so the loop
 * can stop it instead of spending every remaining step.
 */
import { canonicalJson } from "../base/canonical-json";

export class RepeatDetector {
  private last: string | undefined;
  private count = 0;

  constructor(private readonly limit = 3) {}

  /** Records a call; true when it is the `limit`-th identical call in a row. */
  record(name: string, argsJson: string): boolean {
    const key = `${name}\u0000${canonicalArguments(argsJson)}`;
    this.count = key === this.last ? this.count + 1 : 1;
    this.last = key;
    return this.count >= this.limit;
  }
}

/** The arguments with sorted keys and no spacing; arguments that are not JSON compare as written. */
export function canonicalArguments(argsJson: string): string {
  if (argsJson.trim() === "") return "{}";
  try {
    return canonicalJson(JSON.parse(argsJson));
  } catch {
    return argsJson;
  }
}
