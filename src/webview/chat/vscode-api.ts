import type { ViewMessage } from "../../core/chat/protocol";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * What the page keeps while hidden (VS Code's webview state). Scroll positions and drafts are
 * kept by the extension instead, with the chats, so they also survive a reload.
 */
export interface PageState {
  /** The newest notice already shown, and the activation that sent it (see Notice). */
  readonly noticeSeen: number;
  readonly noticeSession?: string;
}

/** The page's channel to the extension: typed messages out, persisted page state. */
export class Host {
  private readonly api = acquireVsCodeApi();
  private state: PageState;

  constructor() {
    const saved = this.api.getState() as Partial<PageState> | undefined;
    this.state = { noticeSeen: saved?.noticeSeen ?? 0, ...(saved?.noticeSession ? { noticeSession: saved.noticeSession } : {}) };
  }

  post(message: ViewMessage): void {
    this.api.postMessage(message);
  }

  get page(): PageState {
    return this.state;
  }

  update(change: Partial<PageState>): void {
    this.state = { ...this.state, ...change };
    this.api.setState(this.state);
  }
}
