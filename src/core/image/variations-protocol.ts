/** Messages between the image variations preview (webview) and the extension. */

export interface VariationImage {
  readonly index: number;
  /** Undefined when the server did not report it. */
  readonly seed: number | undefined;
  /** A `data:image/...;base64,` URI: the page's CSP allows images only from the extension and data:. */
  readonly src: string;
}

/** Extension -> webview. */
export type ToVariationsView =
  | { readonly type: "show"; readonly prompt: string; readonly details: string; readonly images: readonly VariationImage[] }
  | { readonly type: "saved"; readonly index: number; readonly label: string }
  | { readonly type: "failed"; readonly index: number; readonly message: string };

/** Webview -> extension. */
export type FromVariationsView = { readonly type: "ready" } | { readonly type: "save"; readonly index: number };

/** A message from the webview, checked: anything else is ignored. */
export function parseFromVariationsView(message: unknown): FromVariationsView | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { type, index } = message as { type?: unknown; index?: unknown };
  if (type === "ready") return { type };
  if (type === "save" && typeof index === "number" && Number.isInteger(index) && index >= 0) return { type, index };
  return undefined;
}

/** A message from the extension, checked, for the webview. */
export function parseToVariationsView(message: unknown): ToVariationsView | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (m.type === "show" && typeof m.prompt === "string" && typeof m.details === "string" && Array.isArray(m.images)) {
    const images = m.images.filter(isVariationImage);
    return images.length === m.images.length ? { type: "show", prompt: m.prompt, details: m.details, images } : undefined;
  }
  if ((m.type === "saved" || m.type === "failed") && typeof m.index === "number") {
    if (m.type === "saved" && typeof m.label === "string") return { type: "saved", index: m.index, label: m.label };
    if (m.type === "failed" && typeof m.message === "string") return { type: "failed", index: m.index, message: m.message };
  }
  return undefined;
}

function isVariationImage(value: unknown): value is VariationImage {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.index === "number" &&
    (v.seed === undefined || typeof v.seed === "number") &&
    typeof v.src === "string" &&
    /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/.test(v.src)
  );
}
