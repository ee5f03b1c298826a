// The chat page (chat-page.ts) opened once for a describe block and started afresh before each
// test; `deliver` hands it a chat's turns as the host's state would.
import { join } from "node:path";
import type { ChatTurn } from "../../../../src/core/chat/conversation";
import { openWebviewPage, type WebviewPage } from "../../support/webview-page";

type Page = { start(): void; deliver(message: { turns: readonly ChatTurn[]; streaming: boolean }): void };

export interface ChatPageDriver {
  readonly web: () => WebviewPage;
  deliver(turns: readonly ChatTurn[], streaming: boolean): Promise<void>;
}

/** Registers the page's hooks in the calling describe block. */
export function useChatPage(): ChatPageDriver {
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "chat-page.ts"))));
  after(() => web?.close());
  beforeEach(() => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start()));
  return {
    web: () => web,
    deliver: (turns, streaming) => web.page.evaluate((m) => (window as unknown as { chatPage: Page }).chatPage.deliver(m), { turns, streaming }),
  };
}
