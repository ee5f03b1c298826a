import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolStep } from "../../../src/core/agent/agent-task";
import type { AssistantTurn, ChatTurn, UserTurn } from "../../../src/core/chat/conversation";
import type { CheckpointsView, HostMessage } from "../../../src/core/chat/protocol";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { start(): void; deliver(message: { turns: readonly ChatTurn[]; streaming: boolean; checkpoints?: CheckpointsView } | HostMessage): void; posted(): unknown[] };

const asked: UserTurn = { id: "u1", role: "user", text: "make the tests pass", attachments: [], createdAt: 0 };
const answer = (status: AssistantTurn["status"], text = "", steps: ToolStep[] = []): AssistantTurn => ({ id: "a1", role: "assistant", text, model: "m", status, createdAt: 0, ...(steps.length ? { agent: { steps, files: [], messages: [] } } : {}) });
const ran = (id: string, status: ToolStep["status"], output?: string): ToolStep => ({ kind: "tool", id, tool: "run_in_terminal", title: `ran step ${id}`, status, command: "npm test", ...(output === undefined ? {} : { output }) });

describe("chat panel from the keyboard (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"))));
  after(() => web?.close());
  beforeEach(() => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start()));

  const deliver = (turns: ChatTurn[], streaming: boolean, checkpoints?: CheckpointsView) => send({ turns, streaming, ...(checkpoints ? { checkpoints } : {}) });
  const send = (message: Parameters<Page["deliver"]>[0]) => web.page.evaluate((m) => (window as unknown as { chatPage: Page }).chatPage.deliver(m), message);
  /** What the page last asked of the host (its saves of the scroll position and draft left out: they come on a timer). */
  const lastPosted = async () => (await web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.posted() as { type: string }[])).filter((m) => m.type !== "viewState").at(-1)?.type;
  /** What has the keyboard focus: its tag, and its label or text. */
  const focused = () => web.page.evaluate(() => {
    const node = document.activeElement as HTMLElement | null;
    return node === null || node === document.body ? "nothing" : `${node.tagName.toLowerCase()} ${node.getAttribute("aria-label") ?? node.textContent}`;
  });

  it("Send pressed from the keyboard leaves the focus in the prompt box, and so does Stop when the answer ends", async () => {
    await deliver([], false);
    await web.page.focus("textarea");
    await web.page.keyboard.type("why does it fail?");
    await web.page.focus(".composer button[type=submit]");
    assert.equal(await focused(), "button Send");
    await web.page.keyboard.press("Enter");
    assert.equal((await lastPosted()), "send");
    await deliver([{ ...asked, text: "why does it fail?" }, answer("streaming")], true);
    assert.equal(await focused(), "textarea Message to Wisp", "after Send");

    await web.page.focus("button.stop");
    await web.page.keyboard.press("Enter");
    assert.equal((await lastPosted()), "stop");
    await deliver([{ ...asked, text: "why does it fail?" }, answer("stopped", "Because")], false);
    assert.equal(await focused(), "textarea Message to Wisp", "after Stop");
  });

  it("an approval card answered from the keyboard gives the focus to the next card, then to the prompt box", async () => {
    await deliver([asked, answer("streaming", "", [ran("s1", "asking")])], true);
    await web.page.focus(".agent-approval button.primary");
    assert.equal(await focused(), "button Allow");
    await web.page.keyboard.press("Enter");
    assert.equal((await lastPosted()), "agentApproval");
    await deliver([asked, answer("streaming", "", [ran("s1", "done", "ok"), ran("s2", "asking")])], true);
    assert.equal(await web.page.evaluate(() => document.activeElement?.closest("[data-step]")?.getAttribute("data-step")), "s2", "the next card's question");
    assert.equal(await focused(), "button Allow");

    await web.page.keyboard.press("Tab");
    await web.page.keyboard.press("Tab");
    assert.equal(await focused(), "button Deny");
    await web.page.keyboard.press("Enter");
    await deliver([asked, answer("streaming", "", [ran("s1", "done", "ok"), ran("s2", "denied")])], true);
    assert.equal(await focused(), "textarea Message to Wisp", "no card left");
  });

  it("a running command's Output opened from the keyboard keeps the focus while the command prints", async () => {
    await deliver([asked, answer("streaming", "", [ran("s1", "running", "building…")])], true);
    await web.page.focus("[data-step=s1] summary");
    await web.page.keyboard.press("Enter");
    await deliver([asked, answer("streaming", "", [ran("s1", "running", "building…\ncompiled")])], true);
    assert.equal(await focused(), "summary Output (live)");
    assert.equal(await web.page.evaluate(() => document.activeElement?.closest("[data-step]")?.getAttribute("data-step")), "s1");
  });

  it("View as Code closed with Escape or Close gives the focus back to its button", async () => {
    await deliver([], false);
    for (const close of ["Escape", "Close"]) {
      await web.page.focus("button[aria-label='View as Code']");
      await web.page.keyboard.press("Enter");
      assert.equal((await lastPosted()), "viewAsCode");
      await send({ type: "snippets", note: "", snippets: [{ language: "curl", label: "curl", code: "curl …" }] });
      assert.equal(await focused(), "button curl", "the panel opens on its tab");
      if (close === "Close") await web.page.focus("button[aria-label='Close View as Code']");
      await web.page.keyboard.press(close === "Close" ? "Enter" : "Escape");
      assert.equal(await web.page.isHidden(".snippets"), true);
      assert.equal(await focused(), "button View as Code", `after ${close}`);
    }
  });

  it("Restore Checkpoint and Redo pressed from the keyboard leave the focus on the page: the prompt box once their bar is gone", async () => {
    const task = answer("done", "Done.", [ran("s1", "done", "ok")]);
    await deliver([asked, task], false, { requests: ["u1"] });
    await web.page.focus("button.checkpoint-restore");
    await web.page.keyboard.press("Enter");
    assert.equal(await focused(), "button Restore", "the confirmation's Restore");
    await web.page.keyboard.press("Enter");
    assert.equal((await lastPosted()), "agentRestore");
    assert.notEqual(await focused(), "nothing", "right after Restore");
    await deliver([], false, { requests: [], redo: { requests: 1, files: 1 } });
    assert.equal(await focused(), "textarea Message to Wisp", "the request gone");

    await web.page.focus(".checkpoint-redo button");
    await web.page.keyboard.press("Enter");
    assert.equal((await lastPosted()), "agentRedo");
    await deliver([asked, task], false, { requests: ["u1"] });
    assert.equal(await focused(), "textarea Message to Wisp", "after Redo");
  });

  it("a notice dismissed from the keyboard leaves the focus in the prompt box, and does not vanish by itself while the keyboard is on it", async () => {
    await web.page.clock.install();
    await web.page.evaluate(() => (window as unknown as { chatPage: { show(n: unknown): unknown } }).chatPage.show({ id: 1, session: "s", text: "Copied." }));
    await web.page.focus(".notice button.dismiss");
    await web.page.clock.runFor(20_000);
    assert.equal(await web.page.isVisible(".notice"), true, "still shown while its Dismiss has the focus");
    await web.page.keyboard.press("Enter");
    assert.equal(await web.page.isHidden(".notice"), true);
    assert.equal(await focused(), "textarea Message to Wisp");
  });
});
