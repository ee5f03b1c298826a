// The image variations preview: the images side by side, a Save button under each.
// Built from DOM nodes and textContent only: nothing from the server or the prompt becomes HTML.
import { parseToVariationsView, type FromVariationsView, type VariationImage } from "../core/image/variations-protocol";

interface VsCodeApi {
  postMessage(message: FromVariationsView): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const buttons = new Map<number, HTMLButtonElement>();
const notes = new Map<number, HTMLElement>();

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function figure(image: VariationImage, prompt: string): HTMLElement {
  const box = element("figure", "variation");
  const img = element("img", "variation-image");
  img.src = image.src;
  img.alt = `${prompt} (seed ${image.seed ?? "unknown"})`;
  const caption = element("figcaption", "variation-caption");
  caption.append(element("span", "variation-seed", image.seed === undefined ? "seed not reported" : `seed ${image.seed}`));
  const save = element("button", "variation-save", "Save");
  save.type = "button";
  save.dataset.index = String(image.index);
  // Each Save says which image: a screen reader lists the buttons apart from the pictures.
  save.setAttribute("aria-label", `Save image ${image.index + 1} (seed ${image.seed ?? "not reported"})`);
  save.addEventListener("click", () => {
    // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page's start.
    if (save.getAttribute("aria-disabled") === "true") return;
    save.setAttribute("aria-disabled", "true");
    save.textContent = "Saving…";
    vscode.postMessage({ type: "save", index: image.index });
  });
  const note = element("span", "variation-note");
  note.setAttribute("role", "status");
  caption.append(save, note);
  buttons.set(image.index, save);
  notes.set(image.index, note);
  box.append(img, caption);
  return box;
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseToVariationsView(event.data);
  if (message === undefined) return;
  if (message.type === "show") {
    buttons.clear();
    notes.clear();
    const header = element("header", "variations-header");
    header.append(element("h1", "variations-prompt", message.prompt), element("p", "variations-details", message.details));
    const grid = element("main", "variations-grid");
    grid.append(...message.images.map((image) => figure(image, message.prompt)));
    document.body.replaceChildren(header, grid);
    return;
  }
  const button = buttons.get(message.index);
  const note = notes.get(message.index);
  if (button === undefined || note === undefined) return;
  button.removeAttribute("aria-disabled");
  button.textContent = message.type === "saved" ? "Save again" : "Save";
  note.textContent = message.type === "saved" ? `Saved as ${message.label}` : message.message;
  note.classList.toggle("variation-error", message.type === "failed");
});

vscode.postMessage({ type: "ready" });
