/**
 * Element building for the webview. Text goes in as text nodes, never as HTML: the only HTML the
 * panel parses is the sanitized markdown rendering (markdown.ts).
 */
type Child = Node | string | undefined | false;
type Props = Record<string, string | number | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name === "className") node.className = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** A button that says what it does (its label, or an aria-label for icon-only buttons). */
export function button(label: string, props: Props = {}, text: string = label): HTMLButtonElement {
  return el("button", { type: "button", title: label, "aria-label": label, ...props }, text);
}

/** A button that runs `onClick`: its handler is attached where it is built, not decoded from the page. */
export function actionButton(label: string, onClick: () => void, props: Props = {}, text: string = label): HTMLButtonElement {
  const node = button(label, props, text);
  node.addEventListener("click", onClick);
  return node;
}
