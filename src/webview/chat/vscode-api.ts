import type { ViewMessage } from "../../core/chat/protocol";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** What the page keeps across hiding and reloads (VS Code stores it with the view). */
export interface PageState {
  /** Scroll offset per chat id. */
  readonly scroll: Readonly<Record<string, number>>;
  /** Unsent text per chat id. */
  readonly drafts: Readonly<Record<string, string>>;
  /** The newest notice already shown. */
  readonly noticeSeen: number;
}

/** The page's channel to the extension: typed messages out, persisted page state. */
export class Host {
  private readonly api = acquireVsCodeApi();
  private state: PageState;

  constructor() {
    const saved = this.api.getState() as Partial<PageState> | undefined;
    this.state = { scroll: { ...saved?.scroll }, drafts: { ...saved?.drafts }, noticeSeen: saved?.noticeSeen ?? 0 };
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
