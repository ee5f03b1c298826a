import * as vscode from "vscode";
import { parseViewMessage, type HostMessage, type ViewMessage } from "../../core/chat/protocol";
import type { Logger } from "../logger";
import { webviewHtml, webviewOptions } from "../webview/webview-page";

export const chatViewId = "wisp.chat";

export interface ChatViewHandler {
  /** The webview (re)started and asked for its state. */
  ready(): void;
  message(message: ViewMessage): void;
}

/**
 * The chat webview view: strict-CSP page, a ready handshake (nothing is posted before the page
 * asks), and only well-formed messages passed on. The page is rebuilt when the view is shown
 * again after being hidden, and asks for its state again then.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  /** Listeners of the current view (a view moved to another container is resolved again). */
  private subscriptions: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri, private readonly handler: ChatViewHandler, private readonly log: Logger) {}

  get isReady(): boolean {
    return this.ready && this.view?.visible === true;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.dispose();
    this.view = view;
    this.ready = false;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = webviewHtml(view.webview, this.extensionUri, { title: "Wisp Chat", script: "main-chat.js", styles: ["chat.css"] });
    this.subscriptions.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.ready = false;
      }),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        this.ready = false;
      }),
    );
  }

  /** Posts to the page when it is up (otherwise the next `ready` brings it up to date); resolves once delivered. */
  post(message: HostMessage): PromiseLike<boolean> {
    if (!this.isReady) return Promise.resolve(false);
    return this.view!.webview.postMessage(message);
  }

  /** Shows the view (opening its container) and, optionally, focuses it. */
  async reveal(focus: boolean): Promise<void> {
    if (this.view) this.view.show(!focus);
    else await vscode.commands.executeCommand(`${chatViewId}.focus`);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions = [];
  }

  private receive(raw: unknown): void {
    const message = parseViewMessage(raw);
    if (message === undefined) {
      this.log.warn(`chat view: ignored a malformed message (${typeof raw === "object" && raw !== null ? String((raw as { type?: unknown }).type) : typeof raw})`);
      return;
    }
    if (message.type === "ready") {
      this.ready = true;
      this.handler.ready();
      return;
    }
    this.handler.message(message);
  }
}
