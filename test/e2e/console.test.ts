import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import { SseParser } from "../../src/core/api/sse";
import { applyStreamEvent, emptyAnswer } from "../../src/core/playground/chat-answer";
import { launchChromium } from "../harness/browser";
import { freePort } from "../harness/free-port";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot } from "../harness/toolchain";
import { screenshotOnFailure } from "./support/screenshot-on-failure";

const run = promisify(execFile);
const TEXT_MODEL = "wisp-tiny";

/** The text of a streamed chat answer as curl prints it (server-sent events). */
function streamedContent(sse: string): string {
  const parser = new SseParser();
  const answer = [...parser.feed(sse), ...parser.end()].reduce((a, e) => applyStreamEvent(a, e.data), emptyAnswer);
  assert.equal(answer.error, undefined);
  assert.ok(answer.done, "the stream ended with [DONE]");
  return answer.content;
}

describe("the web console in Chromium, against a running wisp-server", function () {
  this.timeout(240_000);
  const temp = new TempDirs();
  let server: LocalServer;
  let log: WriteStream;
  let origin: string;
  let loginUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Requests the page made and CSP violations it reported, over the whole suite. */
  const requested: string[] = [];
  const violations: string[] = [];
  let apiKey: string;
  let snippetDir: string;

  before(async () => {
    const toolchain = ensureToolchain();
    const startupLines: string[] = [];
    log = createWriteStream(join(temp.make("console-e2e-log"), "server.log"));
    server = await startLocalServer({
      root: repoRoot,
      port: await freePort(),
      modelsDir: temp.make("console-e2e-models"),
      dataDir: temp.make("console-e2e-data"),
      log,
      onStartupLine: (line) => startupLines.push(line),
    });
    origin = server.baseUrl.replace(/\/v1$/, "");
    const consoleLine = startupLines.map((l) => /^console: (\S+)$/.exec(l)?.[1]).find(Boolean);
    assert.ok(consoleLine, `no console line in:\n${startupLines.join("\n")}`);
    loginUrl = consoleLine;
    browser = await launchChromium(toolchain);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    page = await context.newPage();
    page.on("request", (request) => requested.push(request.url()));
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    mkdirSync(join(repoRoot, ".cache"), { recursive: true });
    // Inside the repository, so that the TypeScript snippet's `import "openai"` resolves.
    snippetDir = mkdtempSync(join(repoRoot, ".cache", "console-snippets-"));
  });
  after(async () => {
    await browser?.close();
    await server?.process.stop();
    await new Promise<void>((done) => (log ? log.end(done) : done()));
    if (snippetDir) rmSync(snippetDir, { recursive: true, force: true });
    temp.removeAll();
  });
  screenshotOnFailure(() => page);

  const sdk = (key: string) => new OpenAI({ baseURL: server.baseUrl, apiKey: key, maxRetries: 0 });
  const cookies = async () => (await context.cookies(origin)).filter((c) => c.name.startsWith("wisp_console_"));

  it("keeps the console and its API from anyone without the admin token", async () => {
    await page.goto(`${origin}/#keys`);
    assert.equal(new URL(page.url()).pathname, "/login");
    await page.locator("form.login-card input#token").waitFor();
    await page.goto(`${origin}/login?token=not-the-token`);
    assert.match(await page.locator(".login-error").innerText(), /not right/);
    await page.fill("#token", "another-wrong-token");
    await page.click("button[type=submit]");
    await page.locator(".login-error").waitFor();
    assert.deepEqual(await cookies(), []);
    for (const path of ["/console/api/keys", "/console/api/usage", "/console/api/session", "/console/console.js"]) {
      assert.equal((await page.request.get(`${origin}${path}`)).status(), 401, path);
    }
    assert.equal((await page.request.post(`${origin}/console/api/keys`, { data: { name: "x" } })).status(), 401);
  });

  it("logs in with the link the server printed, into an HttpOnly, SameSite=Strict session", async () => {
    await page.goto(loginUrl);
    await page.locator("header h1", { hasText: "Wisp console" }).waitFor();
    assert.equal(page.url(), `${origin}/`, "the token is gone from the address");
    const [cookie] = await cookies();
    assert.ok(cookie, "a session cookie");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, "Strict");
    assert.equal(await page.evaluate(() => document.cookie), "", "no script can read it");
  });

  it("creates a key, shows its secret once with a Copy button, and the key works from the openai SDK", async () => {
    await page.goto(`${origin}/#keys`);
    await page.fill("#key-name", "e2e laptop");
    await page.click("text=Create key");
    const secret = (await page.locator("code.secret").innerText()).trim();
    assert.match(secret, /^wisp-[\w-]{43}$/);
    await page.locator(".secret-once button.copy").click();
    await page.locator(".secret-once button.copy", { hasText: "Copied" }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    const models = await sdk(secret).models.list();
    assert.ok(models.data.some((m) => m.id === TEXT_MODEL));
    await page.click("text=Done");
    assert.equal(await page.locator("code.secret").count(), 0);
    assert.ok(!(await page.content()).includes(secret), "the secret is gone from the page");
    const row = page.locator("table.keys tr", { hasText: "e2e laptop" });
    await row.locator("td", { hasText: secret.slice(0, 9) }).waitFor();
    await page.reload();
    await row.locator("td.active").waitFor();
    assert.notEqual(await row.locator("td").nth(3).innerText(), "never", "last used is shown");
    apiKey = secret;
  });

  it("revokes a key: the next request with it gets 401", async () => {
    await page.fill("#key-name", "short-lived");
    await page.click("text=Create key");
    const secret = (await page.locator("code.secret").innerText()).trim();
    await page.click("text=Done");
    const client = sdk(secret);
    await client.models.list();
    const row = page.locator("table.keys tr", { hasText: "short-lived" });
    await row.locator("button", { hasText: "Revoke" }).click();
    await row.locator("button", { hasText: "Confirm revoke" }).click();
    await row.locator("td.revoked").waitFor();
    await assert.rejects(client.models.list(), (error: unknown) => error instanceof OpenAI.AuthenticationError && error.status === 401);
  });

  let answer = "";

  it("streams a playground chat answer in, with its token usage", async () => {
    await page.goto(`${origin}/#chat`);
    await page.locator("select[name=model] option", { hasText: TEXT_MODEL }).waitFor({ state: "attached" });
    await page.fill("input[name=temperature]", "0");
    await page.fill("input[name=max_tokens]", "48");
    await page.fill("input[name=top_k]", "40");
    await page.fill("input[name=presence_penalty]", "0.5");
    await page.fill("textarea[name=system]", "You answer in one line.");
    await page.fill("textarea[name=message]", "Say hello to the console.");
    // Watch the assistant's message grow while it streams.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { seen: number[] }).seen = seen;
      new MutationObserver(() => {
        const live = document.querySelector(".message.streaming .content");
        if (live) seen.push(live.textContent?.length ?? 0);
      }).observe(document.querySelector(".messages")!, { childList: true, subtree: true, characterData: true });
    });
    await page.click("button:text-is('Send')");
    const status = page.locator(".conversation .status", { hasText: "total" });
    await status.waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
    assert.ok(new Set(seen.filter((n) => n > 0)).size >= 2, `the answer grew while streaming: ${seen.join(",")}`);
    const usage = /prompt (\d+) · completion (\d+) · total (\d+) tokens/.exec(await status.innerText());
    assert.ok(usage, await status.innerText());
    assert.equal(Number(usage[1]) + Number(usage[2]), Number(usage[3]));
    assert.ok(Number(usage[2]) > 0);
    answer = await page.locator(".message.assistant .content").last().innerText();
    assert.ok(answer.length > 0);
    assert.equal(await page.locator(".message.user .content").innerText(), "Say hello to the console.");
  });

  it("shows the request as curl and TypeScript that, run as shown with the key in the environment, answer the same", async () => {
    await page.click("text=View code");
    const view = page.locator(".conversation .code-view");
    await view.locator(".code-caption", { hasText: "last sent" }).waitFor();
    const env = { ...process.env, WISP_API_KEY: apiKey };
    const shown = async (language: string) => {
      await view.locator(`button[data-language=${language}]`).click();
      const code = await view.locator("pre.code").innerText();
      await view.locator("button.copy").click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code, "Copy copies what is shown");
      assert.ok(!/wisp-(?!server)[\w-]{20,}/.test(code), "no key in the code");
      assert.ok(code.includes(server.baseUrl), "the base URL is filled in");
      assert.ok(code.includes("WISP_API_KEY"));
      return code;
    };

    const curl = await shown("curl");
    assert.match(curl, /"temperature": 0,/);
    assert.match(curl, /"presence_penalty": 0\.5,/);
    assert.match(curl, /"top_k": 40,/);
    const curlOut = await run("bash", ["-c", curl], { env, maxBuffer: 4 << 20 });
    assert.equal(streamedContent(curlOut.stdout), answer, "curl's answer");

    const typescript = await shown("typescript");
    const file = join(snippetDir, "snippet.ts");
    writeFileSync(file, typescript);
    const tsOut = await run("npx", ["--no-install", "tsx", file], { env, cwd: repoRoot, maxBuffer: 4 << 20 });
    assert.equal(tsOut.stdout, `${answer}\n`, "the TypeScript snippet's answer");

    const python = await shown("python");
    assert.match(python, /temperature=0,/);
    assert.match(python, /extra_body=\{\n\s+"top_k": 40,/);
    // The openai package is not installed for Python here: the snippet is checked to compile.
    writeFileSync(join(snippetDir, "snippet.py"), python);
    await run("python3", ["-m", "py_compile", join(snippetDir, "snippet.py")]);
  });

  it("asks for JSON that follows a JSON schema, and gets it", async () => {
    await page.click("button:text-is('Clear')");
    await page.selectOption("select[name=response_format]", "json_schema");
    const schema = { type: "object", properties: { answer: { type: "string", maxLength: 20 } }, required: ["answer"] };
    await page.fill("textarea[name=json_schema]", JSON.stringify(schema));
    await page.fill("input[name=max_tokens]", "200");
    await page.fill("textarea[name=message]", "Answer in JSON.");
    await page.click("button:text-is('Send')");
    await page.locator(".conversation .status", { hasText: "total" }).waitFor({ timeout: 60_000 });
    const reply = JSON.parse(await page.locator(".message.assistant .content").last().innerText()) as { answer: unknown };
    assert.equal(typeof reply.answer, "string");
    assert.ok((reply.answer as string).length <= 20);
    await page.locator(".conversation .code-view button[data-language=curl]").click();
    const code = await page.locator(".conversation .code-view pre.code").innerText();
    assert.match(code, /"response_format": \{\n\s+"type": "json_schema"/);
  });

  it("defines a tool, shows the call the model made, takes the tool's result, and the code makes the same call", async () => {
    await page.click("button:text-is('Clear')");
    await page.selectOption("select[name=response_format]", "text");
    const schema = { type: "object", properties: { city: { enum: ["Paris", "Rome"] }, days: { type: "integer" } }, required: ["city", "days"] };
    await page.fill("input[name=tool_name]", "get_weather");
    await page.fill("input[name=tool_description]", "Weather in a city");
    await page.fill("textarea[name=tool_parameters]", JSON.stringify(schema));
    await page.selectOption("select[name=tool_choice]", "named");
    await page.fill("input[name=temperature]", "0");
    await page.fill("textarea[name=message]", "What is the weather in Paris?");
    await page.click("button:text-is('Send')");
    await page.locator(".conversation .status", { hasText: "finish: tool_calls" }).waitFor({ timeout: 60_000 });
    const shownCall = await page.locator(".message.assistant .tool-call").last().innerText();
    const match = /^get_weather\((\{.*\})\)$/s.exec(shownCall);
    assert.ok(match, shownCall);
    const args = JSON.parse(match[1]!) as { city: unknown; days: unknown };
    assert.ok(args.city === "Paris" || args.city === "Rome", match[1]);
    assert.ok(Number.isInteger(args.days), match[1]);

    const view = page.locator(".conversation .code-view");
    await view.locator("button[data-language=typescript]").click();
    const typescript = await view.locator("pre.code").innerText();
    assert.match(typescript, /"tool_choice": \{\n\s+"type": "function"/);
    const file = join(snippetDir, "tool-snippet.ts");
    writeFileSync(file, typescript);
    const env = { ...process.env, WISP_API_KEY: apiKey };
    const tsOut = await run("npx", ["--no-install", "tsx", file], { env, cwd: repoRoot, maxBuffer: 4 << 20 });
    assert.equal(tsOut.stdout, `\nget_weather ${match[1]}\n`, "the TypeScript snippet streams the same call");
    await view.locator("button[data-language=python]").click();
    assert.match(await view.locator("pre.code").innerText(), /tools=\[/);

    // The tool's result goes back, and the model answers in text.
    await page.selectOption("select[name=role]", "tool");
    await page.fill("textarea[name=message]", '{"sky": "clear"}');
    await page.click("button:text-is('Add')");
    assert.equal(await page.locator(".message.tool .role").innerText(), "TOOL RESULT");
    await page.selectOption("select[name=tool_choice]", "none");
    await page.click("button:text-is('Send')");
    await page.locator(".conversation .status", { hasText: /finish: (stop|length)/ }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator(".message").count(), 4, "user, the call, the tool result, the answer");
    assert.equal(await page.locator(".message.assistant").last().locator(".tool-call").count(), 0);
    await page.fill("input[name=tool_name]", "");
  });

  it("generates an image in the image tab, and its curl code gives the same image", async () => {
    await page.goto(`${origin}/#image`);
    await page.locator("select[name=image_model] option").first().waitFor({ state: "attached" });
    await page.fill("textarea[name=prompt]", "a small red square");
    await page.fill("textarea[name=negative_prompt]", "blue");
    await page.selectOption("select[name=size]", "64x64");
    await page.fill("input[name=steps]", "2");
    await page.fill("input[name=seed]", "7");
    await page.click("button:text-is('Generate')");
    const image = page.locator(".image-result img");
    await image.waitFor({ timeout: 60_000 });
    assert.equal(await image.evaluate((img: HTMLImageElement) => img.naturalWidth), 64);
    assert.match(await page.locator(".image-result figcaption").innerText(), /seed 7/);
    const src = (await image.getAttribute("src"))!;
    const code = await page.locator(".code-view pre.code").innerText();
    assert.match(code, /"negative_prompt": "blue"/);
    const { stdout } = await run("bash", ["-c", code], { env: { ...process.env, WISP_API_KEY: apiKey }, maxBuffer: 16 << 20 });
    const body = JSON.parse(stdout) as { data: { b64_json: string }[] };
    assert.equal(`data:image/png;base64,${body.data[0]!.b64_json}`, src, "same seed and parameters, same image");
  });

  it("shows a key's requests and token counts on the Usage page, as a chart and a table", async () => {
    await page.goto(`${origin}/#keys`);
    await page.fill("#key-name", "usage-e2e");
    await page.click("text=Create key");
    const secret = (await page.locator("code.secret").innerText()).trim();
    await page.click("text=Done");
    const client = sdk(secret);
    let prompt = 0;
    let completion = 0;
    for (const [i, stream] of [false, true, false].entries()) {
      const request = { model: TEXT_MODEL, messages: [{ role: "user" as const, content: `usage request ${i}` }], max_tokens: 5 + i };
      if (stream) {
        const chunks = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
        for await (const chunk of chunks) if (chunk.usage) ((prompt += chunk.usage.prompt_tokens), (completion += chunk.usage.completion_tokens));
      } else {
        const response = await client.chat.completions.create(request);
        prompt += response.usage!.prompt_tokens;
        completion += response.usage!.completion_tokens;
      }
    }
    await page.goto(`${origin}/#usage`);
    const row = page.locator("table.usage tr", { hasText: "usage-e2e" });
    await row.waitFor();
    const cells = await row.locator("td").allInnerTexts();
    assert.deepEqual(cells, ["usage-e2e", TEXT_MODEL, "3", "0", String(prompt), String(completion), "0"]);
    await page.selectOption("select[name=metric]", "completion_tokens");
    await page.locator(".legend li", { hasText: `usage-e2e: ${completion}` }).waitFor();
    assert.ok((await page.locator("svg.chart rect.bar").count()) > 0, "bars are drawn");
    await page.selectOption("select[name=group_by]", "model");
    await page.locator(".legend li", { hasText: TEXT_MODEL }).waitFor();
  });

  it("reads on a narrow window without sideways scrolling", async () => {
    await page.setViewportSize({ width: 380, height: 800 });
    for (const route of ["keys", "chat", "image", "usage"]) {
      await page.goto(`${origin}/#${route}`);
      await page.locator("main .panel").first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `#${route} is ${overflow}px wider than the window`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("logs out: the console and its API are closed again", async () => {
    await page.goto(`${origin}/#keys`);
    await page.click("text=Log out");
    await page.waitForURL(`${origin}/login`);
    assert.equal((await page.request.get(`${origin}/console/api/keys`)).status(), 401);
  });

  it("loaded nothing from outside the server and broke no content-security rule", () => {
    const outside = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:"));
    assert.deepEqual(outside, []);
    assert.deepEqual(violations, []);
  });
});
