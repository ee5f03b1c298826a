import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import { waitFor } from "../harness/wait-for";
import { startServer, TEXT_MODEL } from "./server-fixture";

const run = promisify(execFile);
// The source, not bin/wisp-server.js: that prefers dist/, which may be older than the source.
const MAIN = ["--import", "tsx", path.resolve(import.meta.dirname, "../../src/server/main.ts")];

/** What a serving CLI prints (stdout, and stderr where piped), and its origin once it listens. */
function collectOutput(child: ChildProcess): { listening: Promise<string>; text: () => string } {
  let output = "";
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (bytes: Buffer) => (output += bytes.toString()));
    child.stdout!.on("data", (bytes: Buffer) => {
      output += bytes.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { listening, text: () => output };
}

/** Runs the real CLI against a data dir. */
async function cli(dataDir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...MAIN, ...args, "--data-dir", dataDir]);
  return stdout;
}

describe("the wisp-server command", function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-cli-test-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("--version prints the server's version, the package's", async () => {
    const { version } = JSON.parse(await readFile(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
    const { stdout } = await run(process.execPath, [...MAIN, "--version"]);
    assert.equal(stdout, `${version}\n`);
  });

  it("manages keys: create prints the secret once, list shows it without the secret, revoke", async () => {
    const dataDir = path.join(dir, "keys-data");
    const [first, secret] = (await cli(dataDir, "keys", "create", "--name", "laptop")).trim().split("\n");
    const id = /created (key_\w+)/.exec(first!)![1]!;
    // Where it is: an operator of a team server who forgot --database made a key no replica knows.
    assert.equal(first, `created ${id} (laptop) in ${path.join(dataDir, "keys.json")}`);
    assert.match(secret!, /^wisp-[\w-]{40,}$/);
    const listed = await cli(dataDir, "keys", "list");
    assert.match(listed, new RegExp(`${id}\\tlaptop`));
    assert.ok(!listed.includes(secret!));
    assert.equal(await cli(dataDir, "keys", "revoke", id), `revoked ${id} in ${path.join(dataDir, "keys.json")}\n`);
    assert.match(await cli(dataDir, "keys", "list"), /revoked/);
    const unknown = await run(process.execPath, [...MAIN, "keys", "revoke", "key_nothing", "--data-dir", dataDir]).then(() => assert.fail("an unknown key revoked"), (error: { code: number; stderr: string }) => error);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, `wisp-server: no key key_nothing in ${path.join(dataDir, "keys.json")} (wisp-server keys list shows them)\n`, "one line, not the usage text");
  });

  it("keys created and revoked by the CLI while a server runs, or by an edit of keys.json, count from the server's next request", async () => {
    const server = await startServer();
    try {
      const dataDir = server.deps.config.dataDir;
      const works = async (secret: string) => (await fetch(`${server.baseURL}/models`, { headers: { authorization: `Bearer ${secret}` } })).status;
      assert.equal(await works(server.key), 200);
      const [first, secret] = (await cli(dataDir, "keys", "create", "--name", "from-cli")).trim().split("\n");
      assert.equal(await works(secret!), 200);
      await cli(dataDir, "keys", "revoke", /created (key_\w+)/.exec(first!)![1]!);
      assert.equal(await works(secret!), 401);
      // Revoked by hand, in place (same file, no rename): the next request is refused.
      const keysFile = path.join(dataDir, "keys.json");
      const file = JSON.parse(await readFile(keysFile, "utf8")) as { keys: { name: string; revoked?: number }[] };
      for (const key of file.keys) if (key.name === "test") key.revoked = 1;
      await writeFile(keysFile, JSON.stringify(file));
      assert.equal(await works(server.key), 401);
    } finally {
      await server.close();
    }
  });

  it("admin-token new while a server runs: the old token stops logging in at once and the new one logs in", async () => {
    const server = await startServer();
    try {
      const dataDir = server.deps.config.dataDir;
      const origin = new URL(server.baseURL).origin;
      const logsIn = async (token: string) => (await fetch(`${origin}/login?token=${encodeURIComponent(token)}`, { redirect: "manual" })).status === 303;
      const linkFor = async (token: string) => (await fetch(`${origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status;
      const old = (await readFile(path.join(dataDir, "admin-token"), "utf8")).trim();
      assert.ok(await logsIn(old));
      const printed = (await cli(dataDir, "admin-token", "new")).trim().split("\n");
      assert.equal(printed[0], `a new console admin token, in ${path.join(dataDir, "admin-token")} (the earlier one no longer logs in):`);
      const fresh = printed[1]!;
      assert.equal(await logsIn(old), false, "the replaced token still logs in");
      assert.equal(await linkFor(old), 401);
      assert.ok(await logsIn(fresh), "the new token does not log in");
      assert.equal(await linkFor(fresh), 200);
    } finally {
      await server.close();
    }
  });

  it("refuses to serve from a data folder another server uses, in one line naming the folder and that server's pid", async () => {
    const server = await startServer();
    try {
      const dataDir = server.deps.config.dataDir;
      const args = [...MAIN, "--port", "0", "--models-dir", server.deps.config.modelsDir, "--data-dir", dataDir];
      // A server that does start is killed by the timeout (and the test fails).
      const failed = await run(process.execPath, args, { timeout: 30_000 }).then(
        () => assert.fail("the second server started"),
        (error: { code: number | null; stderr: string }) => error,
      );
      assert.equal(failed.code, 1, failed.stderr);
      assert.equal(failed.stderr, `wisp-server: another wisp-server (pid ${process.pid}) is using the data folder ${dataDir}: stop it, or give this one another --data-dir\n`);
    } finally {
      await server.close();
    }
  });

  it("serves on loopback, generating the default model and a first key, and says what and where", async () => {
    const child = spawn(process.execPath, [...MAIN, "--port", "0", "--models-dir", path.join(dir, "models"), "--data-dir", path.join(dir, "data")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const printed = collectOutput(child);
      const origin = await printed.listening;
      assert.match(printed.text(), /generating the default/);
      assert.match(printed.text(), new RegExp(`model ${TEXT_MODEL} \\(text\\)`));
      const key = /created API key \S+ \(default\): (\S+)/.exec(printed.text())![1]!;
      const client = new OpenAI({ baseURL: `${origin}/v1`, apiKey: key, maxRetries: 0 });
      const completion = await client.completions.create({ model: TEXT_MODEL, prompt: "hello", max_tokens: 2 });
      assert.equal(completion.model, TEXT_MODEL);
      // The console shows each request with its status and prompt reuse, never the key.
      await waitFor("the request's log line", printed.text, (text) => /POST \/v1\/completions 200/.test(text));
      assert.match(printed.text(), /POST \/v1\/completions 200 \d+ ms prompt \d+ evaluated, \d+ cached/);
      assert.ok(!printed.text().slice(printed.text().indexOf("POST")).includes(key), "the key was printed with a request");
      // The console's login link, printed before the listening line (launchers read up to it).
      const consoleLine = /^console: (http:\/\/127\.0\.0\.1:\d+\/login\?token=(\S+))$/m.exec(printed.text());
      assert.ok(consoleLine && printed.text().indexOf(consoleLine[0]) < printed.text().indexOf("listening on"), printed.text());
      const token = consoleLine[2]!;
      assert.equal((await readFile(path.join(dir, "data", "admin-token"), "utf8")).trim(), token);
      assert.equal((await stat(path.join(dir, "data", "admin-token"))).mode & 0o777, 0o600);
      const login = await fetch(consoleLine[1]!, { redirect: "manual" });
      assert.equal(login.status, 303);
      assert.match(login.headers.get("set-cookie") ?? "", /HttpOnly; SameSite=Strict/);
      await waitFor("the login's log line", printed.text, (text) => /GET \/login\S* 303/.test(text));
      assert.match(printed.text(), /GET \/login 303/);
      assert.equal(printed.text().split(token).length - 1, 1, "the token is printed once, in the login link only");
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("refuses a --config file with a mistake, naming the file, the line and the reason", async () => {
    const file = path.join(dir, "wisp.json");
    await writeFile(file, '{\n  "upstreams": [\n    { "name": "gpu-1", "url": "http://gpu-1:8000/v1" },\n    { "name": "gpu-2", "url": "gpu-2:8000" }\n  ]\n}\n');
    const failed = await cli(path.join(dir, "config-data"), "--config", file).then(
      () => assert.fail("the server started"),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, new RegExp(`^wisp-server: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: line 4: upstreams\\[1\\]\\.url 'gpu-2:8000' must start with http:// or https://`));
  });

  it("refuses a port over 65535 or an upstream whose key-env is not set before it makes models, keys or a token", async () => {
    const refused = async (name: string, ...args: string[]) => {
      const dataDir = path.join(dir, `${name}-data`);
      const modelsDir = path.join(dir, `${name}-models`);
      const failed = await run(process.execPath, [...MAIN, ...args, "--models-dir", modelsDir, "--data-dir", dataDir], { timeout: 30_000, env: { ...process.env, NOT_SET_KEY: "" } }).then(
        () => assert.fail("the server started"),
        (error: { code: number | null; stdout: string; stderr: string }) => error,
      );
      assert.equal(failed.code, 2, failed.stderr);
      assert.equal(failed.stdout, "", "it printed as if starting (a key, models)");
      for (const folder of [dataDir, modelsDir]) {
        await stat(folder).then(
          () => assert.fail(`${folder} was made`),
          () => undefined,
        );
      }
      return failed.stderr.split("\n")[0];
    };
    assert.equal(await refused("port", "--port", "70000"), "wisp-server: --port must be a port number from 1 to 65535 (0: any free port), got '70000'");
    assert.equal(
      await refused("key-env", "--port", "0", "--upstream", "gpu=http://127.0.0.1:9/v1,key-env=NOT_SET_KEY"),
      "wisp-server: upstream gpu: the environment variable NOT_SET_KEY (its key-env) is not set",
    );
  });

  it("says in one line which folder it cannot use and why (a file in the way), without the usage text", async () => {
    const file = path.join(dir, "not-a-folder");
    await writeFile(file, "");
    for (const [option, other] of [["--models-dir", "--data-dir"], ["--data-dir", "--models-dir"]] as const) {
      for (const [given, why] of [[file, "a file is in the way (it is not a folder) (EEXIST)"], [path.join(file, "models"), "a file is in the way on its path (not a folder) (ENOTDIR)"]] as const) {
        const failed = await run(process.execPath, [...MAIN, "--port", "0", option, given, other, path.join(dir, `usable-${option}`)], { timeout: 30_000 }).then(
          () => assert.fail("the server started"),
          (error: { code: number | null; stderr: string }) => error,
        );
        assert.equal(failed.code, 1, failed.stderr);
        assert.equal(failed.stderr, `wisp-server: cannot use ${given} as ${option}: ${why}: give another ${option}\n`);
      }
    }
  });

  it("says in one line that another program holds the port, without the usage text, and keeps its first key for a start that listens", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    const dataDir = path.join(dir, "busy-port-data");
    try {
      const failed = await run(process.execPath, [...MAIN, "--port", String(port), "--models-dir", path.join(dir, "busy-port-models"), "--data-dir", dataDir], { timeout: 30_000 }).then(
        () => assert.fail("the server started"),
        (error: { code: number | null; stdout: string; stderr: string }) => error,
      );
      assert.equal(failed.code, 1, failed.stderr);
      assert.equal(failed.stderr, `wisp-server: cannot listen on 127.0.0.1:${port}: another program uses that port (EADDRINUSE): stop it, or give this one another --port\n`);
      assert.doesNotMatch(failed.stdout, /created API key/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    // The next start, on a free port, is the one that shows the first key.
    const child = spawn(process.execPath, [...MAIN, "--port", "0", "--models-dir", path.join(dir, "busy-port-models"), "--data-dir", dataDir], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const printed = collectOutput(child);
      await printed.listening;
      assert.match(printed.text(), /created API key \S+ \(default\): wisp-/);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("serves an upstream's models with its key from the environment, and never prints the key", async () => {
    const upstream = await startServer();
    const child = spawn(process.execPath, [...MAIN, "--port", "0", "--no-local-models", "--upstream", `gpu=${upstream.baseURL},key-env=GPU_KEY`, "--data-dir", path.join(dir, "upstream-data")], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, GPU_KEY: upstream.key },
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const printed = collectOutput(child);
      const origin = await printed.listening;
      assert.match(printed.text(), new RegExp(`upstream gpu at ${upstream.baseURL}: 2 models \\(wisp-tiny-diffusion, ${TEXT_MODEL}\\)`));
      const key = /created API key \S+ \(default\): (\S+)/.exec(printed.text())![1]!;
      const client = new OpenAI({ baseURL: `${origin}/v1`, apiKey: key, maxRetries: 0 });
      const completion = await client.completions.create({ model: TEXT_MODEL, prompt: "hello", max_tokens: 2 });
      assert.equal(completion.choices.length, 1);
      await waitFor("the request's log line", printed.text, (text) => /POST \/v1\/completions 200/.test(text));
      assert.match(printed.text(), /POST \/v1\/completions 200/);
      assert.ok(!printed.text().includes(upstream.key), "the upstream's key was printed");
    } finally {
      child.kill("SIGTERM");
      await exited;
      await upstream.close();
    }
  });
});
