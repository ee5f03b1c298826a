/** Turns hourly usage buckets into what the Usage page shows: chart series and a totals table. */
import type { UsageBucket } from "./usage-rollup";

export type UsageMetric = "requests" | "prompt_tokens" | "completion_tokens" | "images";
export type UsageGrouping = "key" | "model";
export type UsageRangeName = "24h" | "7d" | "30d";

export const usageMetrics: readonly UsageMetric[] = ["requests", "prompt_tokens", "completion_tokens", "images"];
export const usageRangeNames: readonly UsageRangeName[] = ["24h", "7d", "30d"];

/** Time slots of a chart: hours, or local days (23 to 25 hours long where the clocks change). */
export interface UsageRange {
  /** Each slot's start, oldest first; a slot ends where the next starts, the last at `end`. */
  readonly starts: readonly number[];
  readonly end: number;
  readonly hourly: boolean;
}

export interface UsageSeries {
  /** Key id or model id ("" for requests that reached no model). */
  readonly id: string;
  /** One value per slot. */
  readonly values: number[];
  readonly total: number;
}

export interface UsageTotal {
  readonly key: string;
  readonly model: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  images: number;
}

const HOUR_MS = 3_600_000;

/**
 * The last 24 hours by hour, or the last 7 or 30 days by day of this zone (the browser's). Days
 * are stepped as local dates: a day across a change of the clocks is not 24 hours long.
 */
export function usageRange(name: UsageRangeName, now: number): UsageRange {
  if (name === "24h") {
    const next = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
    return { starts: Array.from({ length: 24 }, (_, i) => next - (24 - i) * HOUR_MS), end: next, hourly: true };
  }
  const days = name === "7d" ? 7 : 30;
  const today = new Date(now);
  const midnight = (back: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate() - back).getTime();
  return { starts: Array.from({ length: days }, (_, i) => midnight(days - 1 - i)), end: midnight(-1), hourly: false };
}

export const slotTimes = (range: UsageRange): readonly number[] => range.starts;

/** A slot's label in this zone: "14:30" for an hour (zones may be off by half hours), "Mar 29" for a day. */
export function slotLabel(range: UsageRange, t: number): string {
  const date = new Date(t);
  const two = (n: number) => String(n).padStart(2, "0");
  return range.hourly ? `${two(date.getHours())}:${two(date.getMinutes())}` : date.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

export function metricValue(b: Pick<UsageBucket, UsageMetric>, metric: UsageMetric): number {
  return b[metric];
}

function slotOf(range: UsageRange, hour: number): number | undefined {
  if (hour >= range.end) return undefined;
  const slot = range.starts.findLastIndex((start) => start <= hour);
  return slot < 0 ? undefined : slot;
}

/** One series per key or model with anything in the range, largest total first. */
export function usageSeries(buckets: readonly UsageBucket[], metric: UsageMetric, groupBy: UsageGrouping, range: UsageRange): UsageSeries[] {
  const byId = new Map<string, number[]>();
  for (const b of buckets) {
    const slot = slotOf(range, b.hour);
    const value = metricValue(b, metric);
    if (slot === undefined || value === 0) continue;
    const id = groupBy === "key" ? b.key : b.model;
    let values = byId.get(id);
    if (!values) byId.set(id, (values = new Array<number>(range.starts.length).fill(0)));
    values[slot]! += value;
  }
  return [...byId.entries()]
    .map(([id, values]) => ({ id, values, total: values.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.total - a.total || a.id.localeCompare(b.id));
}

/** Counts per key and model over the range, most requests first. */
export function usageTotals(buckets: readonly UsageBucket[], range: UsageRange): UsageTotal[] {
  const rows = new Map<string, UsageTotal>();
  for (const b of buckets) {
    if (slotOf(range, b.hour) === undefined) continue;
    const id = JSON.stringify([b.key, b.model]);
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { key: b.key, model: b.model, requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, images: 0 }));
    row.requests += b.requests;
    row.errors += b.errors;
    row.prompt_tokens += b.prompt_tokens;
    row.completion_tokens += b.completion_tokens;
    row.images += b.images;
  }
  return [...rows.values()].sort((a, b) => b.requests - a.requests || a.key.localeCompare(b.key) || a.model.localeCompare(b.model));
}

/** A y-axis top at or above `max` with 2-5 round steps (1, 2 or 5 times a power of ten). */
export function niceScale(max: number): { top: number; ticks: number[] } {
  if (!(max > 0)) return { top: 1, ticks: [0, 1] };
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  // Counts are whole numbers: no fractional steps.
  const wholeStep = Math.max(1, step);
  const top = Math.ceil(max / wholeStep) * wholeStep;
  const ticks: number[] = [];
  for (let v = 0; v <= top + wholeStep / 2; v += wholeStep) ticks.push(v);
  return { top, ticks };
}
