import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { startLocalTextServer, type LocalTextServer } from "../harness/local-text-server";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import { WorkbenchPage } from "../harness/workbench-page";
import { startWorkbench, type WorkbenchSession } from "../harness/workbench-session";
import { ChatView } from "./support/chat-view";
import { screenshotOnFailure } from "./support/screenshot-on-failure";
import { assertWispRaisedNothing } from "./support/stop-workbench";

const mathTs = "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n";
const usageLine = /(\d+) prompt \+ (\d+) answer tokens/;
// Long enough that an answer is still streaming when Stop or a reload arrives on a busy machine.
const maxTokens = 1000;

describe("Chat panel against the local server (code-server + Chromium)", () => {
  const temp = new TempDirs();
  let server: LocalTextServer;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage;
  let chat: ChatView;

  before(async () => {
    const toolchain = ensureToolchain();
    const vsix = ensureVsix();
    // The larger generated model answers at a pace a user (and these tests) can watch and stop;
    // endless, so every answer runs to wisp.chat.maxTokens: one is always there to stop mid-way.
    server = await startLocalTextServer(repoRoot, { size: "large", endless: true });
    const folder = temp.make("e2e-chat");
    writeFileSync(join(folder, "math.ts"), mathTs);
    session = await startWorkbench({
      toolchain,
      vsixes: [vsix],
      folder,
      // No ghost text: the server's counts that these tests check are the chat's alone.
      settings: { "wisp.baseUrl": server.baseUrl, "wisp.chat.maxTokens": maxTokens, "wisp.completion.enabled": false },
      env: { WISP_API_KEY: server.key },
      tempPrefix: "e2e-chat-",
    });
    ui = new WorkbenchPage(session.page!);
    chat = new ChatView(ui);
    await ui.waitReady();
  });
  after(async () => {
    await session?.stop();
    await server?.stop();
    temp.removeAll();
    assertWispRaisedNothing(session);
  });
  screenshotOnFailure(() => session?.page, () => session?.userDataDir);

  const idle = () => waitFor("the server idle", () => server.metrics(), (m) => m.sequences.busy === 0 && m.sequences.waiting === 0);
  const lastAnswer = (frame: Frame) => frame.locator(".turn.assistant").last();
  /** Sends a prompt; returns the answer it starts (not the one before it, which already has text). */
  const send = async (frame: Frame, text: string) => {
    const count = await frame.locator(".turn.assistant").count();
    await frame.locator(".composer textarea").fill(text);
    await frame.locator(".composer textarea").press("Enter");
    const answer = frame.locator(".turn.assistant").nth(count);
    await waitFor("text streaming in", () => answer.locator(".markdown").textContent().then((t) => (t ?? "").length).catch(() => 0), (n) => n > 0, 60_000);
    return answer;
  };

  it("Ask About Selection attaches the selected lines; the question gets an answer streamed from the local server, with its token usage", async () => {
    await ui.openFile("math.ts");
    await ui.page.locator(".editor-instance .monaco-editor .view-lines").first().click();
    await ui.page.keyboard.press("Control+Home");
    for (let i = 0; i < 3; i++) await ui.page.keyboard.press("Shift+ArrowDown");
    await ui.runCommand("Wisp: Ask About Selection");
    const frame = await chat.frame();
    const chip = frame.locator(".composer .chip");
    await chip.waitFor();
    assert.equal((await chip.locator("span").innerText()).trim(), "math.ts, lines 1-3");
    // The model picker offers the server's chat models, not its image models.
    const listed = (await (await fetch(`${server.baseUrl}/models`, { headers: { authorization: `Bearer ${server.key}` } })).json()) as { data: { id: string; kind: string }[] };
    const images = listed.data.filter((m) => m.kind === "image").map((m) => m.id);
    assert.ok(images.length > 0, "the local server lists an image model too");
    const textModels = listed.data.filter((m) => m.kind === "text").map((m) => m.id);
    const offered = await waitFor("the model list", () => frame.locator('select[aria-label="Model"] option').allInnerTexts(), (o) => !o.some((t) => t.includes("…")));
    assert.deepEqual(offered, textModels);
    assert.equal(await frame.locator('select[aria-label="Model"]').inputValue(), server.model);
    const before = await idle();
    // The command put the focus in the prompt box: the user just types.
    await ui.page.keyboard.type("What does this do?");
    await ui.page.keyboard.press("Enter");
    await frame.locator(".turn.user .chip", { hasText: "math.ts, lines 1-3" }).waitFor();
    assert.equal(await frame.locator(".turn.user .user-text").last().innerText(), "What does this do?");
    const footer = lastAnswer(frame).locator(".status");
    await waitFor("the answer's token usage", () => footer.innerText().catch(() => ""), (t) => usageLine.test(t), 60_000);
    const after = await idle();
    const [, prompt, answer] = usageLine.exec(await footer.innerText())!;
    assert.equal(after.requests - before.requests, 1, "one request");
    assert.equal(after.completionTokens - before.completionTokens, Number(answer), "the answer tokens the server generated");
    const evaluated = after.promptTokensEvaluated + after.promptTokensCached - before.promptTokensEvaluated - before.promptTokensCached;
    assert.equal(evaluated, Number(prompt), "the prompt tokens the server read");
    assert.equal(Number(answer), maxTokens, "the endless model answers up to the limit");
    // How it streams in is the Stop test's (a part kept when stopped) and the rendering suite's.
    assert.ok(((await lastAnswer(frame).locator(".markdown").textContent()) ?? "").length > 0, "an answer was shown");
    assert.equal(await frame.locator(".composer .chip").count(), 0, "the attachment went with the message");
  });

  it("Stop aborts the answer at once: the server counts the abort and the partial answer is kept", async () => {
    const frame = await chat.frame();
    const before = await idle();
    await send(frame, "Tell me more about it.");
    const stop = frame.locator(".composer button.stop");
    assert.ok(await stop.isVisible(), "Stop is offered while the answer streams");
    await stop.click();
    const status = await waitFor("the answer to end", () => lastAnswer(frame).locator(".status").innerText().catch(() => ""), (t) => t !== "" && !t.startsWith("Waiting"), 30_000);
    assert.ok(status.startsWith("Stopped"), status);
    const after = await idle();
    const generated = after.completionTokens - before.completionTokens;
    assert.equal(after.aborted - before.aborted, 1, `the server stopped generating (after ${generated} of ${maxTokens} tokens)`);
    assert.equal(await stop.isVisible(), false);
    assert.ok(((await lastAnswer(frame).locator(".markdown").textContent()) ?? "").length > 0, "the text so far is kept");
  });

  // One reload for all a reload must keep (each costs the workbench's and the extension's start).
  it("a reload in the middle of an answer keeps the history as it was, the text so far marked interrupted, and what is typed before the chat comes", async () => {
    const frame = await chat.open();
    const before = await idle();
    const count = (await chat.turns()).length;
    assert.ok(count >= 4);
    await send(frame, "Once more.");
    // The turns before the question, as they are shown now (the answer before it no longer offers Regenerate).
    const earlier = (await chat.turns()).slice(0, count);
    assert.ok(await frame.locator(".composer button.stop").isVisible(), "the answer is still streaming at the reload");
    await chat.holdStateOnNextLoad();
    await ui.page.reload();
    await ui.waitReady();
    // The page draws its prompt box before the extension's chat comes; held here until typed into.
    const early = await chat.heldFrame();
    const typed = "typed while the chat was on its way";
    await early.locator("form.composer textarea").pressSequentially(typed);
    await chat.releaseState(early);
    // The Wisp view was open: the workbench restores it, and it draws the stored chat.
    const after = await waitFor("the chat restored", () => chat.turns().catch(() => []), (t) => t.length === count + 2, 60_000);
    assert.deepEqual(after.slice(0, count), earlier);
    const restored = await chat.frame();
    const status = await waitFor("the restored answer", () => lastAnswer(restored).locator(".status").innerText().catch(() => ""), (t) => t !== "", 60_000);
    assert.ok(status.startsWith("Interrupted"), status);
    assert.ok(((await lastAnswer(restored).locator(".markdown").textContent()) ?? "").length > 0, "the text that had arrived is kept");
    const prompt = restored.locator("form.composer textarea");
    assert.equal(await prompt.inputValue(), typed);
    await prompt.fill("");
    // The window's end stopped the answer on the server too.
    const ended = await idle();
    assert.equal(ended.aborted - before.aborted, 1, `the server stopped generating (after ${ended.completionTokens - before.completionTokens} of ${maxTokens} tokens)`);
  });

  it("View as Code shows the request; the curl snippet, run as shown with the key in the environment, succeeds", async () => {
    const frame = await chat.open();
    await frame.locator("button", { hasText: "View as Code" }).click();
    const dialog = frame.locator('section[aria-label="View as Code"]');
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('[role="tab"]').allInnerTexts(), ["curl", "TypeScript", "Python"]);
    await dialog.locator('[role="tab"]', { hasText: "TypeScript" }).click();
    assert.match(await dialog.locator("pre").innerText(), /apiKey: process\.env\.WISP_API_KEY/);
    await dialog.locator('[role="tab"]', { hasText: "curl" }).click();
    const curl = await dialog.locator("pre").innerText();
    assert.ok(curl.startsWith(`curl -N '${server.baseUrl}/chat/completions'`), curl.slice(0, 200));
    assert.ok(curl.includes("return a + b;"), "the selected code is in the request");
    assert.ok(!curl.includes(server.key), "the snippet does not hold the key");
    const before = await server.metrics();
    const run = spawnSync("bash", ["-c", curl], { encoding: "utf8", env: { ...process.env, WISP_API_KEY: server.key }, timeout: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    const events = run.stdout.split("\n").filter((line) => line.startsWith("data: "));
    assert.equal(events.at(-1), "data: [DONE]");
    assert.ok(events.some((line) => line.includes('"chat.completion.chunk"') && line.includes('"usage"')), "a streamed answer with usage");
    assert.equal((await idle()).requests - before.requests, 1);
  });

  it("the API key never reaches the webview", async () => {
    const frame = await chat.frame();
    const html = await frame.evaluate(() => document.documentElement.outerHTML);
    assert.ok(!html.includes(server.key));
  });
});
