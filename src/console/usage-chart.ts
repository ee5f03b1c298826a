// A stacked bar chart in plain SVG: one bar per time slot, one colour per key or model.
import { niceScale, slotLabel, slotTimes, type UsageRange, type UsageSeries } from "../core/usage/usage-series";
import { formatCount, h, svg } from "./dom";

const width = 720;
const height = 240;
const margin = { top: 12, right: 12, bottom: 28, left: 56 };
/** Series colours are CSS classes series-0..series-7 (they follow the light or dark theme). */
export const seriesClass = (index: number): string => `series-${index % 8}`;

export function usageChart(series: readonly UsageSeries[], range: UsageRange, label: (id: string) => string, unit: string): SVGSVGElement {
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const totals = slotTimes(range).map((_, slot) => series.reduce((sum, s) => sum + (s.values[slot] ?? 0), 0));
  const { top, ticks } = niceScale(Math.max(0, ...totals));
  const y = (v: number) => margin.top + plotH - (v / top) * plotH;
  const slots = slotTimes(range).length;
  const slotW = plotW / slots;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": `${unit} per ${range.hourly ? "hour" : "day"}` });

  for (const tick of ticks) {
    chart.append(svg("line", { x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick), class: "grid-line" }));
    chart.append(svg("text", { x: margin.left - 6, y: y(tick) + 4, class: "axis-label", "text-anchor": "end" }, formatCount(tick)));
  }
  const every = Math.ceil(slots / 8);
  slotTimes(range).forEach((t, slot) => {
    const x = margin.left + slot * slotW;
    if (slot % every === 0) chart.append(svg("text", { x: x + slotW / 2, y: height - 8, class: "axis-label", "text-anchor": "middle" }, slotLabel(range, t)));
    let base = 0;
    series.forEach((s, index) => {
      const value = s.values[slot] ?? 0;
      if (value === 0) return;
      const bar = svg("rect", { x: x + slotW * 0.1, width: slotW * 0.8, y: y(base + value), height: Math.max(1, y(base) - y(base + value)), class: `bar ${seriesClass(index)}` });
      bar.append(svg("title", {}, `${label(s.id)} · ${slotLabel(range, t)} · ${formatCount(value)} ${unit}`));
      chart.append(bar);
      base += value;
    });
  });
  chart.append(svg("line", { x1: margin.left, x2: width - margin.right, y1: y(0), y2: y(0), class: "axis" }));
  return chart;
}

export function chartLegend(series: readonly UsageSeries[], label: (id: string) => string): HTMLElement {
  return h(
    "ul",
    { class: "legend" },
    ...series.map((s, index) =>
      h("li", {}, svg("svg", { viewBox: "0 0 10 10", class: "swatch" }, svg("rect", { width: 10, height: 10, class: seriesClass(index) })), ` ${label(s.id)}: ${formatCount(s.total)}`),
    ),
  );
}
