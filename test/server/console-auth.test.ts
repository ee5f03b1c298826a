import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AdminToken, adminTokenFile } from "../../src/server/store/admin-token-file";
import { fromSameOrigin, matchesSecret, readCookie, redactUrl } from "../../src/server/console/console-security";
import { PLAYGROUND_KEY } from "../../src/server/store/console-sessions";
import { SessionStore } from "../../src/server/store/memory-sessions";
import type { FastifyRequest } from "fastify";

const HOUR = 3_600_000;

describe("console admin token and sessions", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-console-auth-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("creates the admin token once, owner-only, and keeps it across starts", async () => {
    const first = await AdminToken.loadOrCreate(dir);
    assert.ok(first.created);
    assert.match(first.token, /^wisp-admin-[\w-]{43}$/);
    assert.equal((await stat(adminTokenFile(dir))).mode & 0o777, 0o600);
    assert.equal((await readFile(adminTokenFile(dir), "utf8")).trim(), first.token);
    const second = await AdminToken.loadOrCreate(dir);
    assert.equal(second.token, first.token);
    assert.ok(!second.created);
    assert.ok(await second.admin.verify(first.token));
    for (const wrong of ["", first.token.slice(0, -1), `${first.token}x`, first.token.toUpperCase(), undefined, 42]) assert.ok(!(await second.admin.verify(wrong)), String(wrong));
  });

  it("makes a token file that others could read owner-only, and refuses one too short to be safe", async () => {
    await AdminToken.loadOrCreate(dir);
    await chmod(adminTokenFile(dir), 0o644);
    const messages: string[] = [];
    await AdminToken.loadOrCreate(dir, (m: string) => messages.push(m));
    assert.equal((await stat(adminTokenFile(dir))).mode & 0o777, 0o600);
    assert.match(messages.join(), /made it owner-only/);
    await writeFile(adminTokenFile(dir), "short\n");
    await assert.rejects(AdminToken.loadOrCreate(dir), /no usable token/);
  });

  it("finds a session by its cookie until it is idle too long or logged out", async () => {
    let now = 1_000_000;
    const sessions = new SessionStore({ idleMs: HOUR, now: () => now });
    const { cookie, session } = await sessions.create();
    assert.equal(await sessions.get(cookie), session);
    assert.equal(await sessions.get(`${cookie}x`), undefined);
    assert.equal(await sessions.get(undefined), undefined);
    now += HOUR - 1;
    assert.equal(await sessions.get(cookie), session, "use keeps it alive");
    now += HOUR + 1;
    assert.equal(await sessions.get(cookie), undefined, "idle too long");
    const other = await sessions.create();
    await sessions.delete(other.cookie);
    assert.equal(await sessions.get(other.cookie), undefined);
  });

  it("ends sessions at their maximum age and beyond the maximum count, oldest first", async () => {
    let now = 0;
    const sessions = new SessionStore({ maxAgeMs: 10 * HOUR, idleMs: 100 * HOUR, maxSessions: 2, now: () => now });
    const a = await sessions.create();
    const b = await sessions.create();
    const c = await sessions.create();
    assert.equal(await sessions.get(a.cookie), undefined);
    assert.ok((await sessions.get(b.cookie)) && (await sessions.get(c.cookie)));
    now = 10 * HOUR + 1;
    assert.equal(await sessions.get(b.cookie), undefined);
  });

  it("accepts a session's playground key as an API key only while the session lives", async () => {
    const sessions = new SessionStore();
    const { cookie, session } = await sessions.create();
    const key = await sessions.verify(session.playgroundKey);
    assert.equal(key?.id, PLAYGROUND_KEY.id);
    assert.equal(await sessions.verify(cookie), undefined, "the cookie is no API key");
    assert.equal(await sessions.verify(session.csrfToken), undefined, "nor is the CSRF token");
    await sessions.delete(cookie);
    assert.equal(await sessions.verify(session.playgroundKey), undefined);
  });

  it("redeems a login code once, and only before it expires", async () => {
    let now = 0;
    const sessions = new SessionStore({ loginCodeMs: 1000, now: () => now });
    const code = await sessions.issueLoginCode();
    assert.ok(!(await sessions.redeemLoginCode(`${code}x`)));
    assert.ok(await sessions.redeemLoginCode(code));
    assert.ok(!(await sessions.redeemLoginCode(code)), "used up");
    const late = await sessions.issueLoginCode();
    now = 1001;
    assert.ok(!(await sessions.redeemLoginCode(late)), "expired");
    assert.ok(!(await sessions.redeemLoginCode(undefined)));
  });

  it("a login code and a session still end at their time when the clock is set back (NTP), and after a sleep", async () => {
    let wall = 10 * HOUR;
    let steady = 0;
    const sessions = new SessionStore({ loginCodeMs: 1000, idleMs: HOUR, now: () => wall, steadyNow: () => steady });
    const code = await sessions.issueLoginCode();
    const { cookie } = await sessions.create();
    wall -= HOUR;
    steady += 1001;
    assert.ok(!(await sessions.redeemLoginCode(code)), "a 1 s code redeemed 1 s later, the clock set back an hour meanwhile");
    steady += HOUR;
    assert.equal(await sessions.get(cookie), undefined, "a session idle for an hour and a second, the clock set back an hour meanwhile");
    // A laptop asleep for two hours: its time of day moves on, a steady clock may not.
    const asleep = await sessions.issueLoginCode();
    const other = await sessions.create();
    wall += 2 * HOUR;
    assert.ok(!(await sessions.redeemLoginCode(asleep)));
    assert.equal(await sessions.get(other.cookie), undefined);
  });

  it("checks origins, cookies and secrets as a browser sends them", () => {
    const request = (headers: Record<string, string>) => ({ headers: { host: "127.0.0.1:8765", ...headers }, protocol: "http" }) as unknown as FastifyRequest;
    assert.ok(fromSameOrigin(request({ origin: "http://127.0.0.1:8765", "sec-fetch-site": "same-origin" })));
    assert.ok(fromSameOrigin(request({ origin: "http://127.0.0.1:8765" })));
    assert.ok(!fromSameOrigin(request({ origin: "http://evil.example" })));
    assert.ok(!fromSameOrigin(request({ origin: "http://127.0.0.1:8765", "sec-fetch-site": "cross-site" })));
    assert.ok(!fromSameOrigin(request({ origin: "null" })));
    assert.ok(!fromSameOrigin(request({})), "no browser page sent it");
    // Behind a proxy that ends TLS (a tunnel, Codespaces' or code-server's port forwarding): an https page, an http request.
    const proxied = (headers: Record<string, string>) => ({ headers: { host: "wisp.example.com", ...headers }, protocol: "http" }) as unknown as FastifyRequest;
    assert.ok(fromSameOrigin(proxied({ origin: "https://wisp.example.com", "sec-fetch-site": "same-origin" })), "the console's own page through the proxy");
    assert.ok(!fromSameOrigin(proxied({ origin: "https://evil.example" })));
    assert.ok(!fromSameOrigin(proxied({ origin: "https://wisp.example.com.evil.example" })));
    assert.ok(!fromSameOrigin(proxied({ origin: "ftp://wisp.example.com" })));
    assert.equal(readCookie(request({ cookie: "a=1; wisp_console_8765=abc; b=2" }), "wisp_console_8765"), "abc");
    assert.equal(readCookie(request({ cookie: "xwisp_console_8765=abc" }), "wisp_console_8765"), undefined);
    assert.ok(matchesSecret("s3cret", "s3cret") && !matchesSecret("s3cre", "s3cret") && !matchesSecret(undefined, "s3cret"));
    assert.equal(redactUrl("/login?token=wisp-admin-abc&x=1"), "/login");
    assert.equal(redactUrl("/v1/models?api_key=wisp-abc"), "/v1/models");
    assert.equal(redactUrl("/login/abc-def_1"), "/login/[redacted]");
    assert.equal(redactUrl("/console/api/keys"), "/console/api/keys");
  });
});
