import { randomBytes } from "node:crypto";
import * as vscode from "vscode";

/** A webview page: one script bundle from dist/webview and stylesheets from media/. */
export interface WebviewPage {
  readonly title: string;
  /** Bundle name under dist/webview, e.g. `main-chat.js`. */
  readonly script: string;
  /** Stylesheet names under media/. */
  readonly styles: readonly string[];
}

/** Folders a Wisp webview may load from: its bundles and its media, nothing else. */
export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, "dist", "webview"), vscode.Uri.joinPath(extensionUri, "media")];
}

/** Options for every Wisp webview: scripts on, resources limited to webviewRoots. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewRoots(extensionUri) };
}

/**
 * The page's HTML with a strict Content-Security-Policy: nothing by default, the one bundle by
 * nonce, styles and images from the extension (images also as data: URIs, for generated PNGs).
 * No inline script, no remote content, no eval.
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(18).toString("base64");
  const source = webview.cspSource;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `img-src ${source} data:`,
    `font-src ${source}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-src 'none'",
  ].join("; ");
  const asset = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const styles = page.styles.map((name) => `<link rel="stylesheet" href="${escapeAttribute(asset("media", name))}">`).join("\n    ");
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeAttribute(page.title)}</title>
  </head>
  <body>
    <script nonce="${nonce}" src="${escapeAttribute(asset("dist", "webview", page.script))}"></script>
  </body>
</html>`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
