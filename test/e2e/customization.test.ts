import * as assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { ChatView } from "./support/chat-view";
import { useWorkbench } from "./support/workbench-suite";

const greetPrompt = ["---", "description: Greet someone", "agent: ask", "argument-hint: the tone", "---", "Say hello to ${input:person:whom to greet}.", ""].join("\n");
const reviewer = ["---", "description: Reviews code, changes nothing", "tools: [codebase]", "handoffs:", "  - label: Fix it", "    agent: agent", "    prompt: Fix what the review found.", "---", "Review for correctness.", ""].join("\n");

describe("The chat's / commands, agent switch and handoffs with mouse and keyboard (real VS Code UI, scripted server, code-server + Chromium)", () => {
  const key = `sk-wisp-custom-${Date.now().toString(36)}`;
  let server: ScriptedChatServer;
  let ui: WorkbenchPage;
  let frame: Frame;

  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const started = await startScriptedChatServer({ key });
    const folder = temp.make("e2e-customization");
    mkdirSync(join(folder, ".github", "prompts"), { recursive: true });
    mkdirSync(join(folder, ".github", "agents"), { recursive: true });
    writeFileSync(join(folder, ".github", "prompts", "greet.prompt.md"), greetPrompt);
    writeFileSync(join(folder, ".github", "agents", "reviewer.agent.md"), reviewer);
    writeFileSync(join(folder, "app.ts"), "export const app = 1;\n");
    return { server: started, workbench: { vsixes: [vsix], folder, settings: { "wisp.baseUrl": started.baseUrl, "wisp.completion.enabled": false, "wisp.chat.workspaceContext": false }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-customization-" } };
  });
  before(async () => {
    ({ server, ui } = suite);
    // A loaded machine can take longer than Playwright's 30 s per action: each wait here is bounded by the test's own limit.
    ui.page.setDefaultTimeout(0);
    frame = await new ChatView(ui).open();
  });

  const prompt = () => frame.locator(".composer textarea");
  const menu = () => frame.locator(".slash-menu");
  const options = () => menu().locator("[role=option] .mention-label").allInnerTexts();
  const activeOption = () => menu().locator("[role=option][aria-selected=true] .mention-label").innerText();
  const pressed = () => frame.locator(".modes button[aria-pressed=true]").allInnerTexts();
  const lastMessage = () => String((server.chatRequests.at(-1)!.messages as { content: string }[]).at(-1)!.content);
  async function focusPrompt(): Promise<void> {
    const focused = () => frame.evaluate(() => document.hasFocus() && document.activeElement?.matches(".composer textarea") === true);
    await waitFor("the prompt box focused", async () => (await focused()) || (await prompt().click(), await focused()), Boolean);
  }

  it("typing / lists the commands; typing filters, arrows move, Escape closes, Enter picks; a prompt file's input box is answered from the keyboard", async () => {
    await focusPrompt();
    await ui.page.keyboard.type("/");
    await menu().waitFor({ state: "visible" });
    await waitFor("the prompt file listed", options, (o) => o.includes("/greet"));
    assert.deepEqual((await options()).slice(0, 7), ["/explain", "/fix", "/tests", "/new", "/compact", "/init", "/plan"]);
    assert.equal(await activeOption(), "/explain");
    await ui.page.keyboard.press("ArrowDown");
    assert.equal(await activeOption(), "/fix");
    await ui.page.keyboard.press("ArrowUp");
    await ui.page.keyboard.press("ArrowUp");
    assert.equal(await activeOption(), "/greet", "up from the first is the last");
    await ui.page.keyboard.press("Escape");
    assert.ok(await menu().isHidden());
    assert.equal(await prompt().inputValue(), "/", "Escape leaves the text as typed");
    await ui.page.keyboard.type("gr");
    await waitFor("filtered to /greet", options, (o) => o.length === 1 && o[0] === "/greet");
    assert.match(await menu().locator("[role=option] .mention-detail").innerText(), /Greet someone — the tone/);
    await ui.page.keyboard.press("Enter");
    await waitFor("the command in the box", () => prompt().inputValue(), (v) => v === "/greet ");
    assert.ok(await menu().isHidden());
    await ui.page.keyboard.type("warmly");
    server.queue({ text: "Hello, Ana!" });
    await ui.page.keyboard.press("Enter");

    // ${input:person} is asked in VS Code's input box, with its placeholder.
    const input = ui.page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible" });
    assert.equal(await input.getAttribute("placeholder"), "whom to greet");
    await ui.page.keyboard.type("Ana");
    await ui.page.keyboard.press("Enter");
    await waitFor("the request", () => server.chatRequests.length, (n) => n === 1);
    assert.equal(lastMessage(), "Say hello to Ana.\n\nwarmly");
    frame = await new ChatView(ui).frame();
    await waitFor("the answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("Hello, Ana!"));
  });

  it("a click on a command picks it; /new starts an empty chat", async () => {
    await focusPrompt();
    await prompt().fill("");
    await ui.page.keyboard.type("/");
    await menu().waitFor({ state: "visible" });
    await menu().locator("[role=option]", { hasText: "/new" }).click();
    await waitFor("/new in the box", () => prompt().inputValue(), (v) => v === "/new ");
    await ui.page.keyboard.press("Enter");
    await waitFor("an empty chat", () => frame.locator(".turn").count(), (n) => n === 0);
  });

  it("the switch offers Plan and the custom agent beside Ask and Agent, by mouse and keyboard; a custom agent's task carries only its tools; its handoff button goes on in Agent", async () => {
    const modes = () => frame.locator(".modes button").allInnerTexts();
    await waitFor("the agents in the switch", modes, (m) => m.join("|") === "Ask|Agent|Plan|reviewer");
    assert.deepEqual(await pressed(), ["Ask"]);
    await frame.locator(".modes button", { hasText: "reviewer" }).click();
    await waitFor("reviewer chosen", pressed, (p) => p.join() === "reviewer");
    // Keyboard: Shift+Tab from reviewer reaches Plan; Enter chooses it.
    await frame.locator(".modes button", { hasText: "reviewer" }).focus();
    await ui.page.keyboard.press("Shift+Tab");
    await ui.page.keyboard.press("Enter");
    await waitFor("Plan chosen", pressed, (p) => p.join() === "Plan");
    await frame.locator(".modes button", { hasText: "reviewer" }).focus();
    await ui.page.keyboard.press("Space");
    await waitFor("reviewer chosen again", pressed, (p) => p.join() === "reviewer");

    server.queue({ text: "app.ts looks right." });
    const before = server.chatRequests.length;
    await focusPrompt();
    await prompt().fill("Review app.ts");
    await ui.page.keyboard.press("Enter");
    const handoff = frame.locator(".handoffs button", { hasText: "Fix it" });
    await handoff.waitFor({ state: "visible" });
    const tools = ((server.chatRequests[before]!.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
    assert.deepEqual(tools, ["file_search", "grep_search", "list_dir", "read_file"]);
    assert.match(await frame.locator(".turn.assistant").last().locator(".agent-name").innerText(), /reviewer/);

    // The handoff from the keyboard: Agent is chosen, its prompt waits in the box with the answer attached.
    await handoff.focus();
    await ui.page.keyboard.press("Enter");
    await waitFor("Agent chosen", pressed, (p) => p.join() === "Agent");
    await waitFor("the prompt in the box", () => prompt().inputValue(), (v) => v === "Fix what the review found.");
    assert.deepEqual(await frame.locator(".chips.pending .chip > span").allInnerTexts(), ["The answer of reviewer"]);
    server.queue({ text: "Nothing to fix." });
    await focusPrompt();
    await ui.page.keyboard.press("Enter");
    await waitFor("the agent's request", () => server.chatRequests.length, (n) => n === before + 2);
    const agentTools = ((server.chatRequests.at(-1)!.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
    assert.deepEqual(agentTools, ["create_file", "file_search", "get_errors", "grep_search", "list_dir", "manage_todo_list", "read_file", "replace_string_in_file", "run_in_terminal"], "Agent itself offers every tool");
    assert.match(lastMessage(), /^Fix what the review found\.\n\nThe answer of reviewer \(markdown\):\n```markdown\napp\.ts looks right\.\n```$/);
  });

  it("Plan's Start Implementation, clicked, starts Agent with the plan", async () => {
    await frame.locator(".modes button", { hasText: "Plan" }).click();
    await waitFor("Plan chosen", pressed, (p) => p.join() === "Plan");
    server.queue({ text: "1. Change app.ts.\n2. Run the tests." }, { text: "Done." });
    await focusPrompt();
    await prompt().fill("Make app 2");
    const before = server.chatRequests.length;
    await ui.page.keyboard.press("Enter");
    const start = frame.locator(".handoffs button", { hasText: "Start Implementation" });
    await start.waitFor({ state: "visible" });
    assert.equal(((server.chatRequests[before]!.tools ?? []) as unknown[]).length, 5, "Plan reads only");
    await start.click();
    await waitFor("the implementation's request", () => server.chatRequests.length, (n) => n === before + 2);
    await waitFor("Agent chosen", pressed, (p) => p.join() === "Agent");
    assert.match(lastMessage(), /^Implement the plan above, step by step\.[\s\S]*1\. Change app\.ts\.\n2\. Run the tests\./);
    await waitFor("the answer", () => frame.locator(".turn.assistant").last().innerText(), (t) => t.includes("Done."));
    assert.equal(await frame.locator(".handoffs").count(), 0, "no handoff under Agent's answer");
  });
});
