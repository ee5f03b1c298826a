import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { directCompletion } from "../harness/direct-completion";
import { startLocalTextServer, type LocalTextServer } from "../harness/local-text-server";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import { WorkbenchPage } from "../harness/workbench-page";
import { startWorkbench, type WorkbenchSession } from "../harness/workbench-session";
import { screenshotOnFailure } from "./support/screenshot-on-failure";
import { assertWispRaisedNothing } from "./support/stop-workbench";

const statusId = "wisp.wisp.wisp.status";
// Plain text: the pipeline writes no extra context into its prompt, so the test can make the same request.
const fileText = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const maxTokens = 64; // wisp.completion.maxTokens's default

describe("Ghost text in the real VS Code UI against the local server (code-server + Chromium)", () => {
  const temp = new TempDirs();
  let server: LocalTextServer;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage;
  let typed = "";
  let ghost = "";

  before(async () => {
    const toolchain = ensureToolchain();
    const vsix = ensureVsix();
    server = await startLocalTextServer(repoRoot);
    const folder = temp.make("e2e-ghost");
    writeFileSync(join(folder, "notes.txt"), fileText);
    session = await startWorkbench({
      toolchain,
      vsixes: [vsix],
      folder,
      // The editor's defaults (auto-closing on): what users have.
      settings: { "wisp.baseUrl": server.baseUrl },
      env: { WISP_API_KEY: server.key },
      tempPrefix: "e2e-ghost-",
    });
    ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
  });
  after(async () => {
    await session?.stop();
    await server?.stop();
    temp.removeAll();
    assertWispRaisedNothing(session);
  });
  screenshotOnFailure(() => session?.page, () => session?.userDataDir);

  const status = (wanted: RegExp) => waitFor("the Wisp status bar text", () => ui.statusText(statusId).catch(() => ""), (t) => wanted.test(t), 30_000);
  /** The last line as the editor shows it, once no ghost text is drawn into it. */
  const lastLine = async () => (await ui.editorText()).split("\n").at(-1) ?? "";

  it("is ready with the key from WISP_API_KEY", async () => {
    // The server under test has only the generated tiny models: the status says so.
    assert.equal(await status(/^Wisp( \d+ms)? · tiny models$/), "Wisp · tiny models");
  });

  it("shows the server's answer to the typed text as ghost text, and its latency in the status bar", async () => {
    await ui.openFile("notes.txt");
    // The tiny model's answers are random text cut at its first undecodable byte: type the first
    // of these lines that it answers with a few characters to type into (the same request, made
    // directly, says which: the answer is deterministic).
    let direct: Awaited<ReturnType<typeof directCompletion>> | undefined;
    for (const start of ["const x = ", "let value = ", "const name = ", "const message = "]) {
      direct = await directCompletion(server, { uri: "file:///notes.txt", path: "notes.txt", before: fileText + start, after: "" }, maxTokens);
      typed = start;
      if (/^[^\s()[\]{}"'`]{3}/.test(direct.ghost)) break;
    }
    await ui.typeAtEnd(typed);
    ghost = await ui.waitForGhostText();
    assert.equal(ghost, direct!.ghost);
    assert.ok([...ghost].length >= 3, `a suggestion to type into: ${JSON.stringify(ghost)}`);
    await status(/^Wisp \d+ms · tiny models$/);
  });

  it("typing what the ghost text shows sends no request and shows the rest", async () => {
    const before = await server.metrics();
    const next = ghost.slice(0, 1);
    await ui.page.keyboard.type(next);
    const rest = await waitFor("the rest of the ghost text", () => ui.waitForGhostText(5_000).catch(() => ""), (t) => t === ghost.slice(1), 10_000);
    typed += next;
    ghost = rest;
    assert.equal((await server.metrics()).requests, before.requests);
  });

  it("Tab inserts the ghost text", async () => {
    await ui.page.keyboard.press("Tab");
    await ui.waitForNoGhostText();
    assert.equal(await lastLine(), `${typed}${ghost}`.trimEnd());
  });

  it("typing 20 characters fast sends at most 2 requests", async () => {
    const idle = () => waitFor("the server idle", () => server.metrics(), (m) => m.sequences.busy === 0 && m.sequences.waiting === 0);
    await ui.page.keyboard.press("Enter");
    // The new line asks for a suggestion of its own: let it come before counting.
    await ui.waitForGhostText(5_000).catch(() => "");
    const before = await idle();
    // Keystrokes as fast as the browser takes them; on a loaded machine one may still come later
    // than the wait (wisp.completion.debounceMs, 120 ms by default, a third of it between words),
    // and such a pause may rightly send a request: count those pauses.
    let pauses = 0;
    let last = performance.now();
    let previous = "";
    for (const ch of "const twentyChars = ") {
      await ui.page.keyboard.type(ch);
      const now = performance.now();
      if (now - last >= (/\w/.test(previous) ? 120 : 40)) pauses++;
      last = now;
      previous = ch;
    }
    await ui.waitForGhostText().catch(() => ""); // the answer after the pause, if it is not blank
    const requests = (await idle()).requests - before.requests;
    assert.ok(requests >= 1 && requests <= 2 + pauses, `${requests} requests for 20 keystrokes with ${pauses} pauses`);
    await ui.page.keyboard.press("Escape");
  });

  /**
   * The tiny model's answers are random text, cut at its first undecodable byte: on a new line,
   * types the first of `starts` whose ghost text `wanted` accepts, and returns both.
   */
  async function newLineWithGhost(starts: string[], wanted: (ghost: string) => boolean): Promise<{ start: string; ghost: string }> {
    for (const start of starts) {
      await ui.page.keyboard.press("Enter");
      await ui.page.keyboard.type(start);
      const ghost = await ui.waitForGhostText(8_000).catch(() => "");
      if (wanted(ghost)) return { start, ghost };
      await ui.page.keyboard.press("Escape");
    }
    throw new Error(`none of ${JSON.stringify(starts)} got a fitting suggestion`);
  }

  it("Escape dismisses the ghost text and leaves the line as it was", async () => {
    const { start } = await newLineWithGhost(["let y = ", "system: ", "content: ", "answer: "], (ghost) => ghost.trim() !== "");
    await ui.page.keyboard.press("Escape");
    await ui.waitForNoGhostText();
    assert.equal(await lastLine(), start.trimEnd());
  });

  it("Ctrl+Right accepts the next word only", async () => {
    const multiWord = (ghost: string) => /\S\s+\S/.test(ghost.trim());
    const { start, ghost: shown } = await newLineWithGhost(["system: ", "content = ", "count ", "answer: ", "message: ", "word: "], multiWord);
    await ui.page.keyboard.press("Control+ArrowRight");
    await ui.page.keyboard.press("Escape");
    await ui.waitForNoGhostText();
    const inserted = (await lastLine()).slice(start.length);
    assert.ok(inserted.length > 0, "something was inserted");
    assert.ok(shown.startsWith(inserted), `"${inserted}" starts "${shown}"`);
    assert.ok(inserted.length < shown.trimEnd().length, "only the first word");
  });
});
