// Usage: requests, tokens and images per key or model over time (chart), and totals (table).
import { usageMetrics, usageRange, usageRangeNames, usageSeries, usageTotals, type UsageGrouping, type UsageMetric, type UsageRangeName } from "../core/usage/usage-series";
import type { ConsoleApi, UsageReport } from "./console-api";
import { field, formatCount, h, option } from "./dom";
import { chartLegend, usageChart } from "./usage-chart";

const metricLabels: Record<UsageMetric, string> = { requests: "requests", prompt_tokens: "prompt tokens", completion_tokens: "completion tokens", images: "images" };
const rangeLabels: Record<UsageRangeName, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

export class UsageView {
  readonly element: HTMLElement;
  private report: UsageReport | undefined;
  private readonly range = h("select", { attrs: { name: "range" } }, ...usageRangeNames.map((r) => option(r, rangeLabels[r])));
  private readonly metric = h("select", { attrs: { name: "metric" } }, ...usageMetrics.map((m) => option(m, metricLabels[m])));
  private readonly groupBy = h("select", { attrs: { name: "group_by" } }, option("key", "API key"), option("model", "model"));
  private readonly chart = h("figure", { class: "chart-box" });
  private readonly rows = h("tbody");
  private readonly errors = h("ul", { class: "errors", attrs: { role: "alert" } });

  constructor(private readonly api: ConsoleApi) {
    for (const control of [this.range, this.metric, this.groupBy]) control.addEventListener("change", () => this.render());
    const table = h(
      "table",
      { class: "usage" },
      h("thead", {}, h("tr", {}, ...["Key", "Model", "Requests", "Errors", "Prompt tokens", "Completion tokens", "Images"].map((t) => h("th", { text: t, attrs: { scope: "col" } })))),
      this.rows,
    );
    this.element = h(
      "section",
      { class: "panel", attrs: { "aria-label": "Usage" } },
      h("div", { class: "row spread" }, h("h2", { text: "Usage" }), h("button", { class: "secondary", text: "Refresh", attrs: { type: "button" }, on: { click: () => void this.load() } })),
      h("div", { class: "row controls" }, field("Period", this.range), field("Show", this.metric), field("Per", this.groupBy)),
      this.errors,
      this.chart,
      h("div", { class: "table-scroll" }, table),
      h("p", { class: "hint", text: "(no model): requests that ran no model, such as listing models or a rejected request." }),
    );
  }

  async load(): Promise<void> {
    try {
      this.report = await this.api.usage();
      this.errors.replaceChildren();
      this.render();
    } catch (error) {
      this.errors.replaceChildren(h("li", { text: (error as Error).message }));
    }
  }

  private keyName(id: string): string {
    return this.report?.key_names[id] ?? id;
  }

  private render(): void {
    const report = this.report;
    if (!report) return;
    const range = usageRange(this.range.value as UsageRangeName, report.now);
    const metric = this.metric.value as UsageMetric;
    const groupBy = this.groupBy.value as UsageGrouping;
    const label = (id: string) => (groupBy === "key" ? this.keyName(id) : id || "(no model)");
    const series = usageSeries(report.buckets, metric, groupBy, range);
    this.chart.replaceChildren(
      usageChart(series, range, label, metricLabels[metric]),
      series.length > 0 ? chartLegend(series, label) : h("figcaption", { class: "hint", text: `No ${metricLabels[metric]} in this period.` }),
    );
    const totals = usageTotals(report.buckets, range);
    const cell = (n: number) => h("td", { class: "num", text: formatCount(n) });
    this.rows.replaceChildren(
      ...(totals.length === 0
        ? [h("tr", {}, h("td", { text: "No requests in this period.", attrs: { colspan: 7 } }))]
        : totals.map((t) =>
            h(
              "tr",
              { attrs: { "data-key-id": t.key, "data-model": t.model } },
              h("td", { text: this.keyName(t.key) }),
              h("td", { text: t.model || "(no model)" }),
              cell(t.requests),
              cell(t.errors),
              cell(t.prompt_tokens),
              cell(t.completion_tokens),
              cell(t.images),
            ),
          )),
    );
  }
}
