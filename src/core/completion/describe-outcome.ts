import type { CompletionOutcome } from "./types";

/** One log line for an outcome and its reason; never the code, the prompt or the suggestion. */
export function describeOutcome(outcome: CompletionOutcome): string {
  const detail = (() => {
    switch (outcome.kind) {
      case "shown":
        return `shown from ${outcome.source} (${outcome.text.length} chars${outcome.multiline ? ", multi-line" : ""}${outcome.partial ? ", first line" : ""})`;
      case "empty":
        return `empty (${outcome.reason})`;
      case "error":
        return `error ${outcome.errorKind}: ${outcome.message}`;
      case "backoff":
        return `paused after ${outcome.errorKind} (retry in ${Math.round(outcome.retryInMs)} ms)`;
      default:
        return outcome.kind;
    }
  })();
  return `${detail} in ${Math.round(outcome.latencyMs)} ms`;
}
