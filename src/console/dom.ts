// Building the console's DOM: elements with text set as text (never parsed as HTML).

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  /** Attributes set as given (id, type, for, data-*, aria-*, ...). */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.text !== undefined) element.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) element.addEventListener(type, listener as EventListener);
  for (const child of children) if (child) element.append(child);
  return element;
}

const svgNs = "http://www.w3.org/2000/svg";

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: (SVGElement | string)[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(svgNs, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child);
  return element;
}

/** A labelled form field: the label names the control for screen readers and tests. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  const id = control.id || `f-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
  control.id = id;
  return h("div", { class: "field" }, h("label", { text: label, attrs: { for: id } }), control, hint ? h("small", { class: "hint", text: hint }) : null);
}

export function option(value: string, label = value): HTMLOptionElement {
  return h("option", { text: label, attrs: { value } });
}

export function formatTime(seconds: number | null | undefined): string {
  return seconds == null ? "never" : new Date(seconds * 1000).toLocaleString();
}

export const formatCount = (n: number): string => n.toLocaleString("en-US");

/**
 * Puts the keyboard focus on `element` when it was lost: a focused button disabled while its
 * request runs leaves it on the page's body, where a keyboard user's typing goes nowhere.
 */
export function refocus(element: HTMLElement | null | undefined): void {
  const active = document.activeElement;
  if (element && (active === null || active === document.body)) element.focus();
}
