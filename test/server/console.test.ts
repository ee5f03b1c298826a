import assert from "node:assert/strict";
import OpenAI from "openai";
import { delay } from "../../src/core/base/delay";
import { buildApp } from "../../src/server/app";
import { CONSOLE_CSP } from "../../src/server/console/console-security";
import { waitFor } from "../harness/wait-for";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";
import { ConsoleClient } from "./support/console-client";

interface UsageReport {
  buckets: { key: string; model: string; requests: number; errors: number; prompt_tokens: number; completion_tokens: number; images: number }[];
  key_names: Record<string, string>;
}
interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  revoked?: number;
  last_used: number | null;
}

async function loggedIn(server: TestServer): Promise<ConsoleClient> {
  const client = new ConsoleClient(server.origin);
  const response = await client.login(`token=${encodeURIComponent(server.adminToken)}`);
  assert.equal(response.status, 303);
  await client.connect();
  return client;
}

describe("the web console's server side", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("shows only the login page without a session: pages redirect, the script and API answer 401", async () => {
    const anonymous = new ConsoleClient(server.origin);
    const root = await anonymous.request("GET", "/");
    assert.equal(root.status, 303);
    // Relative addresses throughout: the console also works behind a path prefix.
    assert.equal(root.headers.get("location"), "login");
    // A bookmark or link with a query string is the page too: the login page, not a JSON error.
    const queried = await anonymous.request("GET", "/?utm_source=bookmark");
    assert.equal(queried.status, 303);
    assert.equal(queried.headers.get("location"), "login");
    const login = await anonymous.request("GET", "/login");
    assert.equal(login.status, 200);
    assert.match(await login.text(), /<form[^>]+action="login"/);
    for (const [method, path] of [["GET", "/console/console.js"], ["GET", "/console/api/session"], ["GET", "/console/api/keys"], ["GET", "/console/api/usage"], ["POST", "/console/api/keys"], ["POST", "/console/api/logout"]] as const) {
      const response = await anonymous.request(method, path, { json: method === "POST" ? { name: "x" } : undefined });
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.equal(((await response.json()) as { error: { type: string } }).error.type, "authentication_error");
    }
    anonymous.cookie = `wisp_console_${new URL(server.origin).port}=made-up`;
    assert.equal((await anonymous.request("GET", "/console/api/keys")).status, 401, "a made-up session cookie");
  });

  it("refuses a wrong or missing admin token, by link or by form, with no session", async () => {
    const client = new ConsoleClient(server.origin);
    for (const query of ["token=wrong", "token=", `token=${server.adminToken}x`, `token=${server.key}`]) {
      const response = await client.login(query);
      assert.equal(response.status, 401, query);
      assert.equal(response.headers.get("set-cookie"), null);
      assert.match(await response.text(), /not right/);
    }
    for (const body of ["token=wrong", ""]) {
      const response = await fetch(`${server.origin}/login`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: server.origin }, body });
      assert.equal(response.status, 401, body);
      assert.equal(response.headers.get("set-cookie"), null);
    }
    assert.equal(client.cookie, undefined);
  });

  it("logs in with the admin token into an HttpOnly, SameSite=Strict session and drops the token from the address", async () => {
    const client = new ConsoleClient(server.origin);
    const response = await client.login(`token=${server.adminToken}`);
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "./");
    const cookie = response.headers.get("set-cookie")!;
    assert.match(cookie, /^wisp_console_\d+=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.ok(!cookie.includes(server.adminToken));
    const page = await client.request("GET", "/");
    // The page is the console's bundle in dist/server/console (npm run test:server builds it when
    // stale): without it the server's 503 names the build step, and so does this failure.
    assert.equal(page.status, 200, page.status === 200 ? undefined : await page.clone().text());
    assert.equal(page.headers.get("content-security-policy"), CONSOLE_CSP);
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    const html = await page.text();
    assert.match(html, /<script src="console\/console\.js" defer><\/script>/);
    assert.doesNotMatch(html, /<script>(?!<\/script>)|<script[^>]*>[^<]+<\/script>|\son\w+=|style=/, "no inline script, handler or style");
    assert.equal((await client.request("GET", "/console/console.js")).status, 200);
    // The form logs in too.
    const form = await fetch(`${server.origin}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.origin, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ token: server.adminToken }).toString(),
    });
    assert.equal(form.status, 303);
    assert.match(form.headers.get("set-cookie")!, /HttpOnly; SameSite=Strict/);
  });

  it("behind a proxy that ends TLS, makes the session cookie Secure, so the browser never sends it over plain http", async () => {
    const host = new URL(server.origin).host;
    const cookieOf = (response: Response) => {
      assert.equal(response.status, 303);
      return response.headers.get("set-cookie")!;
    };
    // The console's https page posts the login form: its Origin says https.
    const form = await fetch(`${server.origin}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `https://${host}`, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ token: server.adminToken }).toString(),
    });
    assert.match(cookieOf(form), /; HttpOnly; SameSite=Strict; Secure$/, "a form posted from the https page");
    // A login link opened through the proxy (a navigation sends no Origin): the proxy says https.
    const { path } = (await (await fetch(`${server.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${server.adminToken}` } })).json()) as { path: string };
    const link = await fetch(`${server.origin}${path}`, { redirect: "manual", headers: { "x-forwarded-proto": "https" } });
    assert.match(cookieOf(link), /; Secure$/, "a login link through a proxy that sends X-Forwarded-Proto");
    const token = await fetch(`${server.origin}/login?token=${encodeURIComponent(server.adminToken)}`, { redirect: "manual", headers: { forwarded: "for=10.0.0.1;proto=https;host=wisp.example.com" } });
    assert.match(cookieOf(token), /; Secure$/, "a token link through a proxy that sends Forwarded");
    // Plain http (http://127.0.0.1, no proxy): no Secure, which would be refused off localhost.
    const plain = await fetch(`${server.origin}/login?token=${encodeURIComponent(server.adminToken)}`, { redirect: "manual", headers: { "x-forwarded-proto": "http" } });
    assert.doesNotMatch(cookieOf(plain), /Secure/);
  });

  it("refuses state-changing requests without the session's CSRF token or from another origin", async () => {
    const client = await loggedIn(server);
    const attempts: [string, Record<string, string>][] = [
      ["no CSRF token", { "x-wisp-csrf": "" }],
      ["a wrong CSRF token", { "x-wisp-csrf": `${client.csrf}x` }],
      ["another origin", { origin: "http://evil.example" }],
      ["a cross-site fetch", { "sec-fetch-site": "cross-site" }],
      ["Origin: null", { origin: "null" }],
    ];
    for (const [what, headers] of attempts) {
      const response = await client.request("POST", "/console/api/keys", { json: { name: "sneaky" }, headers });
      assert.equal(response.status, 403, what);
    }
    const keys = await client.json<{ keys: KeyRow[] }>("GET", "/console/api/keys");
    assert.ok(!keys.keys.some((k) => k.name === "sneaky"), "no key was created");
    const login = await fetch(`${server.origin}/login`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" }, body: `token=${server.adminToken}` });
    assert.equal(login.status, 403, "a login form posted from another site");
    assert.equal(login.headers.get("set-cookie"), null);
  });

  it("creates a key that works for /v1 at once, lists it without its secret, and a revoked key gets 401 at once", async () => {
    const client = await loggedIn(server);
    const created = await client.json<{ key: KeyRow; secret: string }>("POST", "/console/api/keys", { name: "laptop" });
    assert.match(created.secret, /^wisp-[\w-]{43}$/);
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: created.secret, maxRetries: 0 });
    assert.ok((await sdk.models.list()).data.some((m) => m.id === TEXT_MODEL));
    const listed = await client.request("GET", "/console/api/keys");
    const text = await listed.text();
    assert.ok(!text.includes(created.secret), "the listing holds no secret");
    const row = (JSON.parse(text) as { keys: KeyRow[] }).keys.find((k) => k.id === created.key.id)!;
    assert.equal(row.name, "laptop");
    assert.equal(row.prefix, created.secret.slice(0, 9));
    assert.ok(row.last_used !== null && Math.abs(row.last_used - Date.now() / 1000) < 60, "last used is now");
    const revoked = await client.json<{ key: KeyRow }>("POST", `/console/api/keys/${created.key.id}/revoke`);
    assert.ok(revoked.key.revoked);
    await assert.rejects(sdk.models.list(), OpenAI.AuthenticationError);
    assert.equal((await client.request("POST", "/console/api/keys/key_nope/revoke")).status, 404);
    for (const name of ["", "   ", "a\u0007b", "x".repeat(65)]) assert.equal((await client.request("POST", "/console/api/keys", { json: { name } })).status, 400, JSON.stringify(name));
  });

  it("refuses key names that list as something else or as nothing: text-direction and zero-width characters", async () => {
    const client = await loggedIn(server);
    for (const name of ["ci\u202Egnp.exe", "\u2067laptop", "\u200B", "\u200B\u200D \u2060", "a\u2028b"]) {
      const response = await client.request("POST", "/console/api/keys", { json: { name } });
      assert.equal(response.status, 400, JSON.stringify(name));
      assert.match(((await response.json()) as { error: { message: string } }).error.message, /visible text, without control, invisible or text-direction characters/);
    }
    const names = ["ноутбук", "👨‍👩‍👧 family", "עברית ci"];
    for (const name of names) assert.equal((await client.request("POST", "/console/api/keys", { json: { name } })).status, 201, name);
    const listed = await client.json<{ keys: KeyRow[] }>("GET", "/console/api/keys");
    assert.deepEqual(listed.keys.slice(0, 3).map((k) => k.name).reverse(), names);
  });

  it("keeps /v1 Bearer-only: the session cookie opens no API route, the playground key no console route", async () => {
    const client = await loggedIn(server);
    const withCookie = await fetch(`${server.baseURL}/models`, { headers: { cookie: client.cookie! } });
    assert.equal(withCookie.status, 401);
    const playground = new OpenAI({ baseURL: server.baseURL, apiKey: client.playgroundKey!, maxRetries: 0 });
    assert.ok((await playground.models.list()).data.length > 0, "the playground key works for /v1");
    const asBearer = await fetch(`${server.origin}/console/api/keys`, { headers: { authorization: `Bearer ${client.playgroundKey}` } });
    assert.equal(asBearer.status, 401);
    const apiKeyOnConsole = await fetch(`${server.origin}/console/api/keys`, { headers: { authorization: `Bearer ${server.key}` } });
    assert.equal(apiKeyOnConsole.status, 401);
    const preflight = await fetch(`${server.baseURL}/chat/completions`, { method: "OPTIONS", headers: { origin: "http://evil.example", "access-control-request-method": "POST" } });
    assert.equal(preflight.headers.get("access-control-allow-origin"), null, "no CORS");
    // Logging out ends the session and its playground key.
    assert.equal((await client.request("POST", "/console/api/logout")).status, 204);
    await assert.rejects(playground.models.list(), OpenAI.AuthenticationError);
    assert.equal((await client.request("GET", "/console/api/keys")).status, 401);
  });

  it("turns the admin token into one-time login links for launchers on this machine", async () => {
    const noToken = await fetch(`${server.origin}/console/api/login-link`, { method: "POST" });
    assert.equal(noToken.status, 401);
    const wrong = await fetch(`${server.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${server.key}` } });
    assert.equal(wrong.status, 401, "an API key is no admin token");
    const link = await fetch(`${server.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${server.adminToken}` } });
    const { path } = (await link.json()) as { path: string };
    assert.match(path, /^\/login\/[\w-]{43}$/);
    const client = new ConsoleClient(server.origin);
    const first = await client.open(path);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get("location"), "../");
    assert.equal((await client.request("GET", "/console/api/keys")).status, 200);
    const again = await new ConsoleClient(server.origin).open(path);
    assert.equal(again.status, 401, "a code works once");
    assert.equal((await new ConsoleClient(server.origin).open("/login/made-up-code")).status, 401);
  });

  it("sends a browser that is logged in already on to the console: a login link opened again, the login page from Back", async () => {
    const { path } = (await (await fetch(`${server.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${server.adminToken}` } })).json()) as { path: string };
    const client = new ConsoleClient(server.origin);
    assert.equal((await client.open(path)).status, 303);
    // The same browser (its cookie) opens the link again: not "expired or used, log in with the admin token".
    const again = await client.request("GET", path);
    assert.equal(again.status, 303, await again.text());
    assert.equal(again.headers.get("location"), "../");
    const loginPage = await client.request("GET", "/login");
    assert.equal(loginPage.status, 303);
    assert.equal(loginPage.headers.get("location"), "./");
    // Without a session both still ask for the token.
    assert.equal((await new ConsoleClient(server.origin).open(path)).status, 401);
    assert.equal((await new ConsoleClient(server.origin).open("/login")).status, 200);
  });

  it("takes the login form back to the view whose session ended, and to no other address", async () => {
    const page = await new ConsoleClient(server.origin).open("/login?ended=1&view=chat");
    const html = await page.text();
    assert.match(html, /session has ended/);
    assert.match(html, /<input type="hidden" name="view" value="chat">/);
    // The login form as the browser posts it.
    const post = (view: string) =>
      fetch(`${server.origin}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: server.adminToken, view }).toString(),
      });
    assert.equal((await post("chat")).headers.get("location"), "./#chat");
    for (const view of ["//evil.example", "x\"><script>", "https://evil.example/"]) assert.equal((await post(view)).headers.get("location"), "./", view);
    assert.doesNotMatch(await (await new ConsoleClient(server.origin).open(`/login?ended=1&view=${encodeURIComponent("x\"><b>")}`)).text(), /<b>/);
  });

  it("takes a login link opened within --login-link-lifetime and refuses one opened after it", async () => {
    const own = await startServer({ loginCodeMs: 2_000 });
    try {
      const loginLink = async () => ((await (await fetch(`${own.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${own.adminToken}` } })).json()) as { path: string }).path;
      assert.equal((await new ConsoleClient(own.origin).open(await loginLink())).status, 303);
      const late = await loginLink();
      await delay(2_100);
      const refused = await new ConsoleClient(own.origin).open(late);
      assert.equal(refused.status, 401);
      assert.match(await refused.text(), /That login link has expired/);
    } finally {
      await own.close();
    }
  });

  it("counts requests and tokens per key and model as it serves, streams and images included", async () => {
    const client = await loggedIn(server);
    const a = await client.json<{ key: KeyRow; secret: string }>("POST", "/console/api/keys", { name: "usage-a" });
    const b = await client.json<{ key: KeyRow; secret: string }>("POST", "/console/api/keys", { name: "usage-b" });
    const sdkA = new OpenAI({ baseURL: server.baseURL, apiKey: a.secret, maxRetries: 0 });
    const sdkB = new OpenAI({ baseURL: server.baseURL, apiKey: b.secret, maxRetries: 0 });
    const chat = await sdkA.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Count me" }], max_tokens: 6 });
    const completion = await sdkA.completions.create({ model: TEXT_MODEL, prompt: "def add(a, b):", max_tokens: 5 });
    const stream = await sdkB.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Stream me" }], max_tokens: 7, stream: true, stream_options: { include_usage: true } });
    let streamed: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) streamed = chunk.usage;
    const image = (await sdkA.images.generate({ model: "wisp-tiny-diffusion", prompt: "a dot", n: 2, width: 64, height: 64, num_inference_steps: 1 } as OpenAI.ImageGenerateParamsNonStreaming)) as OpenAI.ImagesResponse;
    await sdkA.models.list();
    await assert.rejects(sdkA.chat.completions.create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] }));

    const report = await client.json<UsageReport>("GET", "/console/api/usage");
    const sum = (key: string, model: string | undefined, field: keyof UsageReport["buckets"][number]) =>
      report.buckets.filter((x) => x.key === key && (model === undefined || x.model === model)).reduce((s, x) => s + (x[field] as number), 0);
    assert.equal(sum(a.key.id, TEXT_MODEL, "requests"), 2);
    assert.equal(sum(a.key.id, TEXT_MODEL, "prompt_tokens"), chat.usage!.prompt_tokens + completion.usage!.prompt_tokens);
    assert.equal(sum(a.key.id, TEXT_MODEL, "completion_tokens"), chat.usage!.completion_tokens + completion.usage!.completion_tokens);
    assert.equal(sum(a.key.id, "wisp-tiny-diffusion", "images"), image.data!.length);
    assert.equal(sum(a.key.id, "", "requests"), 2, "listing models and the unknown model");
    assert.equal(sum(a.key.id, "", "errors"), 1);
    assert.equal(sum(b.key.id, TEXT_MODEL, "requests"), 1);
    assert.equal(sum(b.key.id, TEXT_MODEL, "prompt_tokens"), streamed!.prompt_tokens);
    assert.equal(sum(b.key.id, TEXT_MODEL, "completion_tokens"), streamed!.completion_tokens);
    assert.equal(report.key_names[a.key.id], "usage-a");
  });

  it("counts a stream the client leaves early with the tokens it generated", async () => {
    const client = await loggedIn(server);
    const key = await client.json<{ key: KeyRow; secret: string }>("POST", "/console/api/keys", { name: "leaver" });
    const controller = new AbortController();
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      signal: controller.signal,
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "long" }], max_tokens: 2000, stream: true }),
    });
    // Leave once some text has arrived (the first event only opens the assistant's message).
    const reader = response.body!.getReader();
    let received = "";
    while (!/"content":"[^"]/.test(received)) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const report = await waitFor(
      "the stream's usage",
      () => client.json<UsageReport>("GET", "/console/api/usage"),
      (r) => r.buckets.some((x) => x.key === key.key.id),
    );
    const bucket = report.buckets.find((x) => x.key === key.key.id && x.model === TEXT_MODEL);
    assert.ok(bucket, "the stream is counted");
    assert.equal(bucket.requests, 1);
    assert.ok(bucket.prompt_tokens > 0 && bucket.completion_tokens > 0 && bucket.completion_tokens < 2000, JSON.stringify(bucket));
  });

  it("keeps keys, usage and the admin token across a restart; sessions end", async () => {
    const own = await startServer();
    try {
      const client = await loggedIn(own);
      const created = await client.json<{ key: KeyRow; secret: string }>("POST", "/console/api/keys", { name: "durable" });
      const sdk = new OpenAI({ baseURL: own.baseURL, apiKey: created.secret, maxRetries: 0 });
      const chat = await sdk.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "remember" }], max_tokens: 3 });
      const before = await client.json<UsageReport>("GET", "/console/api/usage");
      await own.app.close();
      const again = await buildApp({ modelsDir: own.deps.config.modelsDir, dataDir: own.deps.config.dataDir, contextSize: 2048 });
      try {
        assert.equal(again.adminToken, own.adminToken);
        const origin = await again.app.listen({ host: "127.0.0.1", port: 0 });
        const stale = new ConsoleClient(origin);
        stale.cookie = client.cookie;
        assert.equal((await stale.request("GET", "/console/api/keys")).status, 401, "sessions live in memory only");
        const fresh = await loggedIn({ ...own, origin });
        const after = await fresh.json<UsageReport>("GET", "/console/api/usage");
        assert.deepEqual(after.buckets, before.buckets);
        const row = after.buckets.find((x) => x.key === created.key.id)!;
        assert.equal(row.completion_tokens, chat.usage!.completion_tokens);
        const again401 = new OpenAI({ baseURL: `${origin}/v1`, apiKey: created.secret, maxRetries: 0 });
        assert.ok((await again401.models.list()).data.length > 0, "the key still works");
      } finally {
        await again.app.close();
      }
    } finally {
      await own.close().catch(() => undefined);
    }
  });

  it("never writes the admin token or a login code into the access log", async () => {
    const lines: string[] = [];
    const own = await startServer({ accessLog: true, log: (line) => lines.push(line) });
    try {
      const client = new ConsoleClient(own.origin);
      await client.login(`token=${own.adminToken}`);
      await client.login("token=wrong-guess");
      const link = await fetch(`${own.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${own.adminToken}` } });
      const { path } = (await link.json()) as { path: string };
      await client.open(path);
      const log = lines.join("\n");
      assert.match(log, /GET \/login 303/);
      assert.match(log, /GET \/login\/\[redacted\] 303/);
      assert.ok(!log.includes(own.adminToken) && !log.includes("wrong-guess") && !log.includes(path.split("/").at(-1)!), log);
    } finally {
      await own.close();
    }
  });
});
