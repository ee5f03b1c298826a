// Keys: create a key with a name (its secret shown once, with Copy), list keys, revoke.
import type { ConsoleApi, ConsoleKey } from "./console-api";
import { copyButton } from "./copy-button";
import { formatTime, h } from "./dom";

export class KeysView {
  readonly element: HTMLElement;
  private readonly name = h("input", { attrs: { type: "text", name: "key_name", maxlength: 64, placeholder: "e.g. laptop, ci, vscode", required: true } });
  private readonly created = h("div", { class: "secret-once", attrs: { hidden: true, role: "region", "aria-label": "New key" } });
  private readonly rows = h("tbody");
  private readonly errors = h("ul", { class: "errors", attrs: { role: "alert" } });
  private readonly createButton = h("button", { text: "Create key", attrs: { type: "submit" } });

  constructor(private readonly api: ConsoleApi) {
    const form = h(
      "form",
      { class: "row", attrs: { "aria-label": "Create a key" }, on: { submit: (e) => (e.preventDefault(), void this.create()) } },
      h("label", { text: "Name", attrs: { for: "key-name" } }),
      this.name,
      this.createButton,
    );
    this.name.id = "key-name";
    const table = h(
      "table",
      { class: "keys" },
      h("thead", {}, h("tr", {}, ...["Name", "Key", "Created", "Last used", "Status", ""].map((t) => h("th", { text: t, attrs: { scope: "col" } })))),
      this.rows,
    );
    this.element = h(
      "section",
      { class: "panel", attrs: { "aria-label": "API keys" } },
      h("h2", { text: "API keys" }),
      h("p", { class: "hint", text: "Every /v1 request needs one: Authorization: Bearer <key>. A revoked key stops working at once." }),
      form,
      this.errors,
      this.created,
      h("div", { class: "table-scroll" }, table),
    );
  }

  async load(): Promise<void> {
    try {
      this.renderKeys(await this.api.keys());
    } catch (error) {
      this.errors.replaceChildren(h("li", { text: (error as Error).message }));
    }
  }

  private async create(): Promise<void> {
    const name = this.name.value.trim();
    // A double click or a second Enter while the first is on its way would make a second key,
    // whose secret replaces the first one's before it was copied: that key works, unseen.
    if (name === "" || this.createButton.disabled) return;
    this.createButton.disabled = true;
    try {
      const { key, secret } = await this.api.createKey(name);
      this.errors.replaceChildren();
      this.name.value = "";
      const value = h("code", { class: "secret", text: secret });
      this.created.replaceChildren(
        h("p", {}, h("strong", { text: `Key “${key.name}” created.` }), " Copy it now: it is not shown again."),
        h("div", { class: "row" }, value, copyButton("Copy", () => secret)),
        h("button", { class: "secondary", text: "Done", attrs: { type: "button" }, on: { click: () => this.hideSecret() } }),
      );
      this.created.hidden = false;
      await this.load();
    } catch (error) {
      this.errors.replaceChildren(h("li", { text: (error as Error).message }));
    } finally {
      this.createButton.disabled = false;
    }
  }

  /** The secret leaves the page once its owner has it. */
  hideSecret(): void {
    this.created.replaceChildren();
    this.created.hidden = true;
  }

  private renderKeys(keys: readonly ConsoleKey[]): void {
    if (keys.length === 0) {
      this.rows.replaceChildren(h("tr", {}, h("td", { text: "No keys yet.", attrs: { colspan: 6 } })));
      return;
    }
    this.rows.replaceChildren(...keys.map((key) => this.row(key)));
  }

  private row(key: ConsoleKey): HTMLTableRowElement {
    const actions = h("td");
    if (!key.revoked) {
      // Two clicks: a revoke cannot be undone.
      const revoke = h("button", { class: "danger", text: "Revoke", attrs: { type: "button", "aria-label": `Revoke ${key.name}` } });
      revoke.addEventListener("click", () => {
        if (revoke.dataset.confirm !== "yes") {
          revoke.dataset.confirm = "yes";
          revoke.textContent = "Confirm revoke";
          return;
        }
        revoke.disabled = true;
        this.api.revokeKey(key.id).then(
          () => this.load(),
          (error: Error) => this.errors.replaceChildren(h("li", { text: error.message })),
        );
      });
      actions.append(revoke);
    }
    return h(
      "tr",
      { attrs: { "data-key-id": key.id } },
      h("td", { text: key.name }),
      h("td", {}, h("code", { text: `${key.prefix}…` })),
      h("td", { text: formatTime(key.created) }),
      h("td", { text: formatTime(key.last_used) }),
      h("td", { class: key.revoked ? "revoked" : "active", text: key.revoked ? `revoked ${formatTime(key.revoked)}` : "active" }),
      actions,
    );
  }
}
