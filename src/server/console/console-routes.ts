// The web console at /: login (admin token, or a one-time link from /console/api/login-link),
// the page and its bundle, and its JSON API. Everything but the login form, its stylesheet and
// the login-link endpoint needs a session; every state-changing request must also come from the
// console's own page (Origin) and carry the session's CSRF token.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken } from "../auth/authenticate";
import { ApiError } from "../errors";
import { consoleApiRoutes } from "./console-api";
import type { ConsoleContext } from "./console-context";
import { clearedCookie, CSRF_HEADER, fromSameOrigin, matchesSecret, reachedOverHttps, readCookie, sessionCookie, sessionCookieName, setSecurityHeaders } from "./console-security";
import { loginPage } from "./login-page";

const cookieName = (request: FastifyRequest) => sessionCookieName(request);

function sendAsset(ctx: ConsoleContext, reply: FastifyReply, name: string): FastifyReply {
  const asset = ctx.assets?.get(name);
  if (!asset) throw new ApiError(503, "the web console is not built: run npm run build", "server_error", null, "console_not_built");
  return reply.type(asset.type).send(asset.body);
}

/**
 * Starts a session and goes to the console. `root` is the relative way back to the console's
 * root: every address the console gives is relative, so it works behind a path prefix too.
 */
async function startSession(ctx: ConsoleContext, request: FastifyRequest, reply: FastifyReply, root: string): Promise<FastifyReply> {
  const { cookie } = await ctx.deps.store.sessions.create();
  reply.header("set-cookie", sessionCookie(cookieName(request), cookie, reachedOverHttps(request)));
  // 303: the address with the token or code is replaced, so it stays out of the history.
  return reply.redirect(root, 303);
}

/** Whether the browser already has a live session (a login page is no use to it). */
const hasSession = async (ctx: ConsoleContext, request: FastifyRequest): Promise<boolean> => (await ctx.deps.store.sessions.get(readCookie(request, cookieName(request)))) !== undefined;

const loginFailed = (reply: FastifyReply, message: string, root = "", view = "") => reply.code(401).type("text/html; charset=utf-8").send(loginPage(message, root, view));

/**
 * The console view a page sent to the login page was on (its #fragment), to go back to once
 * logged in: a view's name only, so the redirect can lead nowhere else.
 */
const viewOf = (value: unknown): string => (typeof value === "string" && /^[a-z]{1,16}$/.test(value) ? value : "");
const rootWith = (root: string, view: string): string => (view ? `${root}#${view}` : root);

const sessionEnded = "Your console session has ended (Log out in another tab, a server restart, or its time ran out): log in again to go on.";

/** Requests under the session guard: no session, no entry; no CSRF token, no change. */
function sessionGuard(ctx: ConsoleContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const session = await ctx.deps.store.sessions.get(readCookie(request, cookieName(request)));
    if (!session) {
      // Returning the reply ends the request here (fastify's rule for async hooks).
      // The page by its route, not its address: "/?from=bookmark" is the page too.
      if (request.method === "GET" && request.routeOptions.url === "/") return reply.redirect("login", 303);
      throw new ApiError(401, "log in to the console first (wisp-server prints a login link)", "authentication_error", null, "no_console_session");
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      if (!fromSameOrigin(request)) throw new ApiError(403, "cross-site request refused", "invalid_request_error", null, "cross_site_request");
      if (!matchesSecret(request.headers[CSRF_HEADER], session.csrfToken)) {
        throw new ApiError(403, `missing or wrong ${CSRF_HEADER} header`, "invalid_request_error", null, "csrf_token");
      }
    }
    request.consoleSession = session;
    return undefined;
  };
}

/** The web console: its login, pages and JSON API, with security headers on every answer. */
export const consoleRoutes: FastifyPluginAsync<ConsoleContext> = async (app, ctx) => {
  const { admin, sessions } = ctx.deps.store;
  app.decorateRequest("consoleSession", null);
  app.addHook("onSend", async (_request, reply, payload) => {
    setSecurityHeaders(reply);
    return payload;
  });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 8192 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // ended and view: a console page whose session ended sends the browser here (console-api.ts).
  app.get<{ Querystring: { token?: string; ended?: string; view?: string } }>("/login", async (request, reply) => {
    const { token, ended } = request.query;
    const view = viewOf(request.query.view);
    if (token !== undefined) return (await admin.verify(token)) ? startSession(ctx, request, reply, "./") : loginFailed(reply, "That admin token is not right.");
    // Back to the login page after logging in, or a bookmark of it: the console is open already.
    if (await hasSession(ctx, request)) return reply.redirect(rootWith("./", view), 303);
    return reply.type("text/html; charset=utf-8").send(loginPage(ended === undefined ? undefined : sessionEnded, "", view));
  });
  // The code sits in the path, not the query: editors that open links re-encode queries ("=").
  app.get<{ Params: { code: string } }>("/login/:code", async (request, reply) => {
    if (await sessions.redeemLoginCode(request.params.code)) return startSession(ctx, request, reply, "../");
    // A link opened again (clicked twice, from the history) in a browser it logged in already.
    if (await hasSession(ctx, request)) return reply.redirect("../", 303);
    return loginFailed(reply, "That login link has expired or was used already: log in with the admin token.", "../");
  });
  app.post<{ Body: { token?: string; view?: string } | undefined }>("/login", async (request, reply) => {
    if (!fromSameOrigin(request)) throw new ApiError(403, "cross-site request refused", "invalid_request_error", null, "cross_site_request");
    const view = viewOf(request.body?.view);
    return (await admin.verify(request.body?.token)) ? startSession(ctx, request, reply, rootWith("./", view)) : loginFailed(reply, "That admin token is not right.", "", view);
  });
  app.get("/console/console.css", async (_request, reply) => sendAsset(ctx, reply, "console.css"));
  // Browsers ask for it on every page; there is none.
  app.get("/favicon.ico", async (_request, reply) => reply.code(204).send());

  // For launchers on this machine that can read the admin token (the VS Code extension): a
  // one-time code to open the console with, so the token itself never goes into a browser.
  app.post("/console/api/login-link", async (request) => {
    if (!(await admin.verify(bearerToken(request.headers.authorization)))) {
      throw new ApiError(401, "send the admin token as Authorization: Bearer <token>", "authentication_error", null, "invalid_admin_token");
    }
    return { path: `/login/${await sessions.issueLoginCode()}` };
  });

  await app.register(async (guarded) => {
    guarded.addHook("onRequest", sessionGuard(ctx));
    guarded.get("/", async (_request, reply) => sendAsset(ctx, reply, "index.html"));
    guarded.get("/console/console.js", async (_request, reply) => sendAsset(ctx, reply, "console.js"));
    guarded.post("/console/api/logout", async (request, reply) => {
      const cookie = readCookie(request, cookieName(request));
      if (cookie) await sessions.delete(cookie);
      return reply.header("set-cookie", clearedCookie(cookieName(request))).code(204).send();
    });
    await guarded.register(consoleApiRoutes, { ...ctx, prefix: "/console/api" });
  });
};
