// Models: this server's own models, and each upstream engine with its health, latency, requests
// in flight and models (its key is never sent to the page).
import type { UpstreamStatus } from "../core/api/upstream-status";
import type { ConsoleApi, ModelsReport } from "./console-api";
import { formatTime, h } from "./dom";

export class ModelsView {
  readonly element: HTMLElement;
  private readonly local = h("tbody");
  private readonly upstreams = h("tbody");
  private readonly errors = h("ul", { class: "errors", attrs: { role: "alert" } });

  constructor(private readonly api: ConsoleApi) {
    const table = (label: string, headings: string[], body: HTMLElement) =>
      h("div", { class: "table-scroll" }, h("table", { attrs: { "aria-label": label } }, h("thead", {}, h("tr", {}, ...headings.map((t) => h("th", { text: t, attrs: { scope: "col" } })))), body));
    this.element = h(
      "section",
      { class: "panel", attrs: { "aria-label": "Models" } },
      h("div", { class: "row spread" }, h("h2", { text: "Models" }), h("button", { class: "secondary", text: "Refresh", attrs: { type: "button" }, on: { click: () => void this.load() } })),
      this.errors,
      h("h3", { text: "On this server" }),
      table("Local models", ["Model", "Kind"], this.local),
      h("h3", { text: "Upstream engines" }),
      table("Upstream engines", ["Upstream", "Address", "Health", "Latency", "In flight", "Models", "Checked"], this.upstreams),
      h("p", { class: "hint", text: "A model several upstreams serve is one model with replicas: requests go to the one with the fewest in flight." }),
    );
  }

  async load(): Promise<void> {
    try {
      this.render(await this.api.modelStatus());
      this.errors.replaceChildren();
    } catch (error) {
      this.errors.replaceChildren(h("li", { text: (error as Error).message }));
    }
  }

  private render(report: ModelsReport): void {
    const empty = (text: string, columns: number) => h("tr", {}, h("td", { text, attrs: { colspan: columns } }));
    this.local.replaceChildren(...(report.local.length ? report.local.map((m) => h("tr", {}, h("td", {}, h("code", { text: m.id })), h("td", { text: m.kind }))) : [empty("None (this server serves upstream models only).", 2)]));
    this.upstreams.replaceChildren(...(report.upstreams.length ? report.upstreams.map((u) => upstreamRow(u)) : [empty("None configured (see --upstream).", 7)]));
  }
}

function upstreamRow(u: UpstreamStatus): HTMLTableRowElement {
  return h(
    "tr",
    { attrs: { "data-upstream": u.name } },
    h("td", { text: u.name }),
    h("td", {}, h("code", { text: u.base_url })),
    h("td", { class: u.healthy ? "active" : "revoked", text: u.healthy ? "healthy" : `unavailable: ${u.last_error ?? "not checked yet"}` }),
    h("td", { text: u.latency_ms === null ? "–" : `${u.latency_ms} ms` }),
    h("td", { text: String(u.outstanding) }),
    h("td", { text: u.models.join(", ") || "none" }),
    h("td", { text: formatTime(u.checked_at === null ? null : Math.floor(u.checked_at / 1000)) }),
  );
}
