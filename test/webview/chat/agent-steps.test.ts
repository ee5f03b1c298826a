import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolStep } from "../../../src/core/agent/agent-task";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { show(steps: ToolStep[]): void; toggle(stepId: string): void; outputs(): Record<string, boolean> };

const ran = (id: string, status: ToolStep["status"], output: string): ToolStep => ({ kind: "tool", id, tool: "run_in_terminal", title: `ran step ${id}`, status, command: "npm test", output, ...(status === "done" ? { exitCode: 0 } : {}) });

describe("agent task steps in the chat (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/turn-page.ts"))));
  after(() => web?.close());

  const show = (steps: ToolStep[]) => web.page.evaluate((s) => (window as unknown as { turnPage: Page }).turnPage.show(s), steps);
  const toggle = (id: string) => web.page.evaluate((i) => (window as unknown as { turnPage: Page }).turnPage.toggle(i), id);
  const outputs = () => web.page.evaluate(() => (window as unknown as { turnPage: Page }).turnPage.outputs());

  it("a step output the user opened or closed stays so while a running command prints more", async () => {
    await show([ran("s1", "done", "1 passing"), ran("s2", "running", "building…")]);
    assert.deepEqual(await outputs(), { s1: false, s2: true }, "finished outputs folded, the running one open");
    await toggle("s1");
    await toggle("s2");
    assert.deepEqual(await outputs(), { s1: true, s2: false });
    await show([ran("s1", "done", "1 passing"), ran("s2", "running", "building…\ncompiled")]);
    assert.deepEqual(await outputs(), { s1: true, s2: false }, "after an output chunk");
    await show([ran("s1", "done", "1 passing"), ran("s2", "done", "building…\ncompiled\ndone"), ran("s3", "running", "")]);
    assert.deepEqual(await outputs(), { s1: true, s2: false, s3: true }, "after the command ended and another began");
  });
});
