import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { WispClient } from "../../../src/client/wisp-client";
import { WispError, type WispErrorKind } from "../../../src/client/wisp-error";
import { LoopbackApi, collect, errorBody, refusedPort, sendJson } from "../../harness/loopback-api";
import { TempDirs } from "../../harness/temp-dirs";
import { wellFormed } from "../../harness/well-formed";

const key = "sk-secret-abcdef123456";

/** Asserts a WispError of `kind` whose message never leaks the key; returns it for more checks. */
async function expectWispError(promise: Promise<unknown>, kind: WispErrorKind): Promise<WispError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof WispError, `expected a WispError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    assert.ok(!error.message.includes(key), "the message contains the API key");
    assert.ok(!String(error.stack).includes(key), "the stack contains the API key");
    return error;
  }
  assert.fail(`expected a ${kind} error`);
}

describe("WispClient failures", () => {
  let api: LoopbackApi;
  let client: WispClient;

  beforeEach(async () => {
    api = await LoopbackApi.start();
    client = new WispClient({ baseUrl: api.baseUrl, apiKey: key, timeoutMs: 2000 });
  });
  afterEach(() => api.close());

  const chat = (c: WispClient) => collect(c.streamChat({ model: "tiny-chat", messages: [{ role: "user", content: "hi" }] }));

  for (const apiKey of [undefined, "", "   "]) {
    it(`fails with no-key before any request when the key is ${JSON.stringify(apiKey)}`, async () => {
      const keyless = new WispClient({ baseUrl: api.baseUrl, apiKey });
      const error = await expectWispError(keyless.listModels(), "no-key");
      assert.match(error.message, /Wisp: Set API Key/);
      await expectWispError(chat(keyless), "no-key");
      assert.equal(api.requests.length, 0);
    });
  }

  it("refuses a key that cannot be sent in a header, without sending it", async () => {
    await expectWispError(new WispClient({ baseUrl: api.baseUrl, apiKey: "sk-a b\nc" }).listModels(), "bad-key");
    assert.equal(api.requests.length, 0);
  });

  it("maps 401 to bad-key without repeating the server's text (which may echo the key)", async () => {
    api.handle((_req, res) =>
      sendJson(res, 401, errorBody(`Incorrect API key provided: ${key}`, "invalid_request_error", "invalid_api_key")),
    );
    const error = await expectWispError(client.listModels(), "bad-key");
    assert.equal(error.status, 401);
    assert.match(error.message, /Wisp: Set API Key/);
  });

  it("maps 403 to forbidden with the server's reason", async () => {
    api.handle((_req, res) => sendJson(res, 403, errorBody("key may not use images", "permission_error")));
    const error = await expectWispError(chat(client), "forbidden");
    assert.match(error.message, /key may not use images/);
  });

  it("cuts a long reason from the server without leaving half of an emoji (shown as �)", async () => {
    api.handle((_req, res) => sendJson(res, 403, errorBody(`${"x".repeat(299)}🚫 this key may not use images`, "permission_error")));
    const error = await expectWispError(chat(client), "forbidden");
    assert.ok(wellFormed(error.message), JSON.stringify(error.message.slice(-40)));
    assert.match(error.message, /x{299}…/);
  });

  it("maps 404 model_not_found to unknown-model naming the model", async () => {
    api.handle((_req, res) =>
      sendJson(res, 404, errorBody("The model `tiny-chat` does not exist", "invalid_request_error", "model_not_found")),
    );
    const error = await expectWispError(chat(client), "unknown-model");
    assert.match(error.message, /"tiny-chat"/);
    assert.match(error.message, /Wisp: Select Model/);
    assert.equal(error.status, 404);
  });

  it("maps a 404 without an API error body to a hint about the base URL", async () => {
    api.handle((_req, res) => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("Cannot GET /v1/models");
    });
    const error = await expectWispError(client.listModels(), "unreachable");
    assert.match(error.message, /\/v1/);
  });

  it("maps a 404 that is not about the model (a wrong base URL) to the base URL hint, not unknown-model", async () => {
    api.handle((_req, res) => sendJson(res, 404, errorBody("Invalid URL (POST /chat/completions)", "invalid_request_error")));
    const error = await expectWispError(chat(client), "unreachable");
    assert.match(error.message, /base URL/);
  });

  it("maps 400 to bad-request carrying the server's message, with the key redacted", async () => {
    api.handle((_req, res) =>
      sendJson(res, 400, errorBody(`max_tokens must be positive (key ${key})`, "invalid_request_error")),
    );
    const error = await expectWispError(chat(client), "bad-request");
    assert.match(error.message, /max_tokens must be positive/);
  });

  it("reports a redirect with the API root it points to, following none (no key sent elsewhere, no POST turned GET)", async () => {
    const elsewhere = await LoopbackApi.start();
    try {
      // An http-to-https style move to another origin, with the path kept.
      api.handle((req, res) => {
        res.writeHead(req.method === "GET" ? 301 : 308, { location: `http://localhost:${elsewhere.port}${req.path}` });
        res.end();
      });
      const moved = await expectWispError(client.listModels(), "unreachable");
      assert.equal(moved.message, `${api.baseUrl} redirects to http://localhost:${elsewhere.port}/v1 (301). If that is the server's API root, set wisp.baseUrl to it.`);
      const movedChat = await expectWispError(chat(client), "unreachable");
      assert.match(movedChat.message, new RegExp(`redirects to http://localhost:${elsewhere.port}/v1 \\(308\\)`));
      // A proxy's sign-in page: its query (a token) is not repeated.
      api.handle((_req, res) => {
        res.writeHead(302, { location: "https://sso.example.com/login?state=s3cr3t-state" });
        res.end();
      });
      const signIn = await expectWispError(chat(client), "unreachable");
      assert.match(signIn.message, /redirects to https:\/\/sso\.example\.com\/login \(302\)/);
      assert.ok(!signIn.message.includes("s3cr3t"));
      assert.equal(elsewhere.requests.length, 0);
    } finally {
      await elsewhere.close();
    }
  });

  it("reads vLLM's error bodies, the error object itself: a missing model is named as such, a refusal says why", async () => {
    // vLLM's (and SGLang's) ErrorResponse: no "error" wrapper.
    const vllm = (message: string, type: string, code: number) => ({ object: "error", message, type, param: null, code });
    api.handle((_req, res) => sendJson(res, 404, vllm("The model `tiny-chat` does not exist.", "NotFoundError", 404)));
    const missing = await expectWispError(chat(client), "unknown-model");
    assert.match(missing.message, /The model "tiny-chat" is not available on .*\(The model `tiny-chat` does not exist\.\)$/);
    const tooLong = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.";
    api.handle((_req, res) => sendJson(res, 400, vllm(tooLong, "BadRequestError", 400)));
    const refused = await expectWispError(chat(client), "bad-request");
    assert.equal(refused.message, `${api.baseUrl} refused the request (400): ${tooLong}`);
  });

  it("reads an error sent as its message alone (Hugging Face TGI's {\"error\": \"...\"}), in a status or mid-stream", async () => {
    const tgi = { error: "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096", error_type: "validation" };
    api.handle((_req, res) => sendJson(res, 422, tgi));
    const refused = await expectWispError(chat(client), "bad-request");
    assert.equal(refused.message, `${api.baseUrl} refused the request (422): ${tgi.error}`);
    api.handle((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(tgi)}\n\n`);
    });
    const failed = await expectWispError(chat(client), "server");
    assert.equal(failed.message, `The server at ${api.baseUrl} reported an error: ${tgi.error}`);
  });

  it("reports the error of a 200 answer that carries only one (LM Studio on a path it does not serve)", async () => {
    // LM Studio's words for /models and /chat/completions under a base URL without /v1.
    const lmStudio = (path: string) => ({ error: `Unexpected endpoint or method. (${path}). Returning 200 anyway` });
    api.handle((req, res) => sendJson(res, 200, lmStudio(`${req.method} ${req.path}`)));
    const listing = await expectWispError(client.listModels(), "server");
    assert.equal(listing.message, `The server at ${api.baseUrl} reported an error: Unexpected endpoint or method. (GET /v1/models). Returning 200 anyway`);
    const chatting = await expectWispError(chat(client), "server");
    assert.match(chatting.message, /reported an error: Unexpected endpoint or method\. \(POST \/v1\/chat\/completions\)/);
  });

  // The date is made when the test runs: made when the file loads, a slow run would age it.
  for (const [name, header, expectedMs] of [
    ["seconds", () => "7", 7000],
    ["an HTTP date", () => new Date(Date.now() + 120_000).toUTCString(), 120_000],
  ] as const) {
    it(`maps 429 to rate-limited honouring Retry-After as ${name}`, async () => {
      api.handle((_req, res) => sendJson(res, 429, errorBody("slow down", "rate_limit_error"), { "retry-after": header() }));
      const error = await expectWispError(chat(client), "rate-limited");
      assert.ok(error.retryAfterMs !== undefined, "retryAfterMs is set");
      // An HTTP date has one-second resolution and the clock moves: allow that much.
      assert.ok(Math.abs(error.retryAfterMs - expectedMs) <= 2000, `retryAfterMs ${error.retryAfterMs}`);
      assert.equal(api.requests.length, 1, "an interactive call does not retry by itself");
    });
  }

  it("keeps the server's reason for a 429: OpenAI's quota exhausted is no rate limit that passes", async () => {
    const quota = "You exceeded your current quota, please check your plan and billing details.";
    api.handle((_req, res) => sendJson(res, 429, errorBody(quota, "insufficient_quota", "insufficient_quota")));
    const error = await expectWispError(client.generateImage({ model: "dall-e-3", prompt: "a cat" }), "rate-limited");
    assert.equal(error.message, `${api.baseUrl} is rate limiting requests (429): ${quota}`);
    assert.equal(error.code, "insufficient_quota");
  });

  it("maps 500 to server with the server's message", async () => {
    api.handle((_req, res) => sendJson(res, 500, errorBody("out of memory", "server_error")));
    const error = await expectWispError(chat(client), "server");
    assert.match(error.message, /out of memory/);
    assert.equal(error.status, 500);
    assert.equal(api.requests.length, 1);
  });

  it("passes on a 503's Retry-After, so the caller knows when the server will be ready", async () => {
    api.handle((_req, res) => sendJson(res, 503, errorBody("model loading", "server_error"), { "retry-after": "3" }));
    const error = await expectWispError(client.listModels(), "server");
    assert.equal(error.retryAfterMs, 3000);
    assert.match(error.message, /model loading/);
  });

  it("retries a 503 when asked to, then succeeds", async () => {
    let calls = 0;
    api.handle((_req, res) =>
      ++calls === 1
        ? sendJson(res, 503, errorBody("loading", "server_error"), { "retry-after-ms": "10" })
        : sendJson(res, 200, { object: "list", data: [{ id: "m", object: "model", created: 0, owned_by: "me" }] }),
    );
    const retrying = new WispClient({ baseUrl: api.baseUrl, apiKey: key, maxRetries: 1 });
    const models = await retrying.listModels();
    assert.deepEqual(models.map((m) => m.id), ["m"]);
    assert.equal(calls, 2);
  });

  it("maps a refused connection to unreachable naming the base URL", async () => {
    const baseUrl = `http://127.0.0.1:${await refusedPort()}/v1`;
    const error = await expectWispError(new WispClient({ baseUrl, apiKey: key }).listModels(), "unreachable");
    assert.ok(error.message.includes(baseUrl), error.message);
    assert.match(error.message, /refused/);
    await expectWispError(chat(new WispClient({ baseUrl, apiKey: key })), "unreachable");
  });

  it("maps an unknown host to unreachable", async () => {
    const baseUrl = "http://wisp-no-such-host.invalid/v1";
    const error = await expectWispError(new WispClient({ baseUrl, apiKey: key }).listModels(), "unreachable");
    assert.ok(error.message.includes(baseUrl), error.message);
  });

  it("says a server's certificate is not trusted (self-signed, or a proxy's that re-signs TLS), not to check the base URL", async () => {
    const dirs = new TempDirs();
    const dir = dirs.make("tls");
    // A certificate made for this test: nothing the system trusts signed it.
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=localhost"], { stdio: "ignore" });
    const tls = createHttpsServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (_req, res) => sendJson(res, 200, { data: [] }));
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `https://localhost:${(tls.address() as AddressInfo).port}/v1`;
      const error = await expectWispError(new WispClient({ baseUrl, apiKey: key }).listModels(), "unreachable");
      assert.equal(
        error.message,
        `Cannot reach ${baseUrl}: its TLS certificate is not trusted (self-signed certificate). If a proxy or your organisation signs it, its CA must be in the system's trusted certificates, which VS Code uses with http.systemCertificates.`,
      );
    } finally {
      await new Promise<void>((resolve) => tls.close(() => resolve()));
      dirs.removeAll();
    }
  });

  it("maps a base URL that is not http(s) to unreachable, before any request", async () => {
    const error = await expectWispError(new WispClient({ baseUrl: "localhost:8765", apiKey: key }).listModels(), "unreachable");
    assert.match(error.message, /wisp\.baseUrl/);
  });

  it("refuses a base URL with credentials in it, without repeating them", async () => {
    const withPassword = `http://admin:hunter2@127.0.0.1:${api.port}/v1`;
    const error = await expectWispError(new WispClient({ baseUrl: withPassword, apiKey: key }).listModels(), "unreachable");
    assert.ok(!error.message.includes("hunter2"));
    assert.equal(api.requests.length, 0);
  });

  it("times out a server that never answers, and closes the connection", async () => {
    api.handle(() => undefined);
    const quick = new WispClient({ baseUrl: api.baseUrl, apiKey: key, timeoutMs: 150 });
    await expectWispError(quick.listModels(), "timeout");
    await expectWispError(chat(quick), "timeout");
    await Promise.all(api.requests.map((r) => r.closed));
  });

  it("times out a JSON answer that stalls after its headers (models, a chat answered whole, images), and closes the connection", async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"object": "list", "data": [');
      // ...and then never another byte.
    });
    const quick = new WispClient({ baseUrl: api.baseUrl, apiKey: key, timeoutMs: 150, imageTimeoutMs: 150 });
    await expectWispError(quick.listModels(), "timeout");
    await expectWispError(chat(quick), "timeout");
    await expectWispError(quick.generateImage({ model: "tiny-sd", prompt: "a cat" }), "timeout");
    assert.equal(api.requests.length, 3);
    await Promise.all(api.requests.map((r) => r.closed));
  });

  it("says a proxy's or sign-in HTML page is in the way, without its markup (an error status, a listing, a stream)", async () => {
    const page = (title: string) =>
      `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx/1.18.0</center></body></html>`;
    const html = (status: number, title: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(page(title));
    };
    api.handle(html(502, "502 Bad Gateway"));
    const gateway = await expectWispError(chat(client), "server");
    assert.equal(
      gateway.message,
      `The server at ${api.baseUrl} failed (502): an HTML page titled "502 Bad Gateway", not the API's answer (a proxy, gateway or sign-in page is in the way)`,
    );
    api.handle(html(200, "Sign in - Corp SSO"));
    const listing = await expectWispError(client.listModels(), "malformed");
    assert.match(listing.message, /: an HTML page titled "Sign in - Corp SSO", not the API's answer/);
    const streaming = await expectWispError(chat(client), "malformed");
    assert.match(streaming.message, /: an HTML page titled "Sign in - Corp SSO", not the API's answer/);
    for (const error of [gateway, listing, streaming]) assert.ok(!error.message.includes("<"), error.message);
  });

  it("a proxy's 403 page (a blocked site) is not taken for a rejected key: the key is not blamed", async () => {
    api.handle((_req, res) => {
      res.writeHead(403, { "content-type": "text/html" });
      res.end("<html><head><title>Access Denied by Corporate Web Filter</title></head><body>Blocked</body></html>");
    });
    const blocked = await expectWispError(client.listModels(), "unreachable");
    assert.equal(
      blocked.message,
      `${api.baseUrl} answered 403 with an HTML page titled "Access Denied by Corporate Web Filter", not the API's answer (a proxy, gateway or sign-in page is in the way)`,
    );
    // The API's own 403 still says the key may not do this.
    api.handle((_req, res) => {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "This key may not use images", type: "invalid_request_error" } }));
    });
    await expectWispError(client.listModels(), "forbidden");
  });

  it("maps a JSON body that is not JSON to malformed", async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"object": "list", "data": [');
    });
    await expectWispError(client.listModels(), "malformed");
  });

  it("cancels listModels when the signal aborts, closing the connection", async () => {
    api.handle(() => undefined);
    const controller = new AbortController();
    const pending = client.listModels(controller.signal);
    while (api.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expectWispError(pending, "cancelled");
    await api.last.closed;
  });
});
