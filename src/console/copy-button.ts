// A Copy button that says whether it worked.
import { h } from "./dom";

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain http to another machine is no secure context: the older selection way still works.
  const area = h("textarea", { class: "offscreen", attrs: { readonly: true } });
  area.value = text;
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("the browser refused to copy");
}

export function copyButton(label: string, text: () => string): HTMLButtonElement {
  const button = h("button", { class: "secondary copy", text: label, attrs: { type: "button" } });
  let timer: number | undefined;
  button.addEventListener("click", () => {
    copyText(text()).then(
      () => (button.textContent = "Copied"),
      () => (button.textContent = "Copy failed: select the text"),
    );
    window.clearTimeout(timer);
    timer = window.setTimeout(() => (button.textContent = label), 2000);
  });
  return button;
}
