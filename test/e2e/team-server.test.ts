import * as assert from "node:assert/strict";
import { createWriteStream, writeFileSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { createApiKey, startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import { directCompletion } from "../harness/direct-completion";
import { freePort } from "../harness/free-port";
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

const statusId = "wisp.wisp.wisp.status";
const KEY_ENV = "WISP_E2E_TEAM_UPSTREAM_KEY";
const fileText = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const usageLine = /(\d+) prompt \+ (\d+) answer tokens/;

// What a team member does: point wisp.baseUrl at the team's wisp-server, which serves no model of
// its own and forwards to an inference engine elsewhere (here another wisp-server), with a key
// the team server issued. Nothing else is set.
describe("Wisp in the real VS Code UI pointed at a team server in front of an upstream engine (code-server + Chromium)", function () {
  this.timeout(240_000);
  const temp = new TempDirs();
  let upstream: LocalTextServer;
  let gateway: LocalServer;
  let log: WriteStream;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage;

  before(async () => {
    const toolchain = ensureToolchain();
    const vsix = ensureVsix();
    upstream = await startLocalTextServer(repoRoot);
    log = createWriteStream(join(temp.make("team-gateway-log"), "server.log"));
    const dataDir = temp.make("team-gateway-data");
    const key = createApiKey(repoRoot, dataDir, "team-member");
    // The upstream's key reaches the team server only through its environment.
    process.env[KEY_ENV] = upstream.key;
    try {
      const extraArgs = ["--no-local-models", "--upstream", `gpu-1=${upstream.baseUrl},key-env=${KEY_ENV}`];
      gateway = await startLocalServer({ root: repoRoot, port: await freePort(), modelsDir: temp.make("team-gateway-models"), dataDir, log, extraArgs });
    } finally {
      delete process.env[KEY_ENV];
    }
    const folder = temp.make("e2e-team");
    writeFileSync(join(folder, "notes.txt"), fileText);
    session = await startWorkbench({ toolchain, vsixes: [vsix], folder, settings: { "wisp.baseUrl": gateway.baseUrl }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-team-" });
    ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
  });
  after(async () => {
    await session?.stop();
    await gateway?.process.stop();
    await upstream?.stop();
    if (log) await new Promise<void>((done) => log.end(done));
    temp.removeAll();
    assertWispRaisedNothing(session);
  });
  screenshotOnFailure(() => session?.page, () => session?.userDataDir);

  it("is ready on the upstream's model, listed by the team server", async () => {
    const status = await waitFor("the Wisp status bar text", () => ui.statusText(statusId).catch(() => ""), (t) => /^Wisp( \d+ms)?$/.test(t), 60_000);
    assert.equal(status, "Wisp");
  });

  it("shows the upstream's own answer as ghost text, generated there", async () => {
    await ui.openFile("notes.txt");
    // The tiny model's answers are random text: type the first of these lines that it answers
    // with a few characters (asked of the upstream directly, which says what it will answer).
    let expected = "";
    let typed = "";
    for (const start of ["const x = ", "let value = ", "const name = ", "const message = "]) {
      expected = (await directCompletion(upstream, { uri: "file:///notes.txt", path: "notes.txt", before: fileText + start, after: "" }, 64)).ghost;
      typed = start;
      if (/^[^\s()[\]{}"'`]{3}/.test(expected)) break;
    }
    const before = await upstream.metrics();
    await ui.typeAtEnd(typed);
    assert.equal(await ui.waitForGhostText(), expected);
    assert.ok((await upstream.metrics()).requests > before.requests, "the upstream generated it");
  });

  it("answers a chat question through the team server, with the token usage the upstream counted", async () => {
    const chat = new ChatView(ui);
    const frame = await chat.open();
    const before = await upstream.metrics();
    await frame.locator(".composer textarea").fill("What does add do?");
    await frame.locator(".composer textarea").press("Enter");
    const footer = frame.locator(".turn.assistant").last().locator(".status");
    await waitFor("the answer's token usage", () => footer.innerText().catch(() => ""), (t) => usageLine.test(t), 120_000);
    const after = await waitFor("the upstream idle", () => upstream.metrics(), (m) => m.sequences.busy === 0);
    const [, , answer] = usageLine.exec(await footer.innerText())!;
    assert.equal(after.completionTokens - before.completionTokens, Number(answer), "the answer tokens the upstream generated");
    assert.ok(((await frame.locator(".turn.assistant .markdown").last().textContent()) ?? "").length > 0, "an answer was shown");
  });
});
