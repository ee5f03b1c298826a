// The token counts an upstream reports in its `usage`, as this server may use them: whole,
// non-negative, safe numbers. Anything else (3.5, "12", 1e400, -1) would fail the usage record's
// insert (bigint) or the metrics' counter (prom-client throws), so it is read as no count.

export interface RelayedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** A count as reported, if it is a number of tokens: non-integers are rounded; other values are undefined. */
export function tokenCount(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  const n = Math.round(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The upstream's `usage` with only the counts that are numbers of tokens; undefined when neither is. */
export function relayedUsage(raw: unknown): RelayedUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const prompt = tokenCount((raw as RelayedUsage).prompt_tokens);
  const completion = tokenCount((raw as RelayedUsage).completion_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  return { ...(prompt === undefined ? {} : { prompt_tokens: prompt }), ...(completion === undefined ? {} : { completion_tokens: completion }) };
}
