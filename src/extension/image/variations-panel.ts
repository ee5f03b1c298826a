import * as vscode from "vscode";
import type { ImageExtension } from "../../core/api/images";
import { imageMediaType } from "../../core/image/image-request";
import { parseFromVariationsView, type ToVariationsView, type VariationImage } from "../../core/image/variations-protocol";
import { webviewHtml, webviewOptions } from "../webview/webview-page";
import { cutAt } from "../../core/base/surrogates";

export interface Variation {
  readonly bytes: Uint8Array;
  readonly seed: number | undefined;
}

export interface VariationsView {
  readonly prompt: string;
  /** One line under the prompt: model, size, steps. */
  readonly details: string;
  readonly format: ImageExtension;
  readonly variations: readonly Variation[];
  /** Saves variation `index`; resolves with the label to show, rejects with a readable error. */
  readonly save: (index: number) => Promise<string>;
}

/**
 * The variations side by side in a webview (the shared strict-CSP page: its one script by nonce,
 * images as data: URIs), each with a Save button.
 */
export function showVariationsPanel(extensionUri: vscode.Uri, view: VariationsView): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel("wisp.imageVariations", `Wisp: ${cutAt(view.prompt, 40)}`, vscode.ViewColumn.Active, webviewOptions(extensionUri));
  const images: VariationImage[] = view.variations.map((v, index) => ({
    index,
    seed: v.seed,
    src: `data:${imageMediaType(view.format)};base64,${Buffer.from(v.bytes).toString("base64")}`,
  }));
  const post = (message: ToVariationsView) => void panel.webview.postMessage(message);
  panel.webview.html = webviewHtml(panel.webview, extensionUri, { title: "Wisp: image variations", script: "main-image-variations.js", styles: ["image-variations.css"] });
  const subscription = panel.webview.onDidReceiveMessage(async (raw: unknown) => {
    const message = parseFromVariationsView(raw);
    if (message === undefined) return;
    // A hidden panel reloads its page when shown again: it says ready each time.
    if (message.type === "ready") return post({ type: "show", prompt: view.prompt, details: view.details, images });
    if (message.index >= images.length) return;
    try {
      post({ type: "saved", index: message.index, label: await view.save(message.index) });
    } catch (error) {
      post({ type: "failed", index: message.index, message: error instanceof Error ? error.message : String(error) });
    }
  });
  panel.onDidDispose(() => subscription.dispose());
  return panel;
}
