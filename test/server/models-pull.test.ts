import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { pullModel } from "../../src/server/models/pull/pull-model";
import { PullError } from "../../src/server/models/pull/pull-error";
import { recordFileName } from "../../src/server/models/pull/recorded-hashes";
import { HubServer } from "../harness/hub-server";
import { waitFor } from "../harness/wait-for";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const run = promisify(execFile);
const MAIN = ["--import", "tsx", path.resolve(import.meta.dirname, "../../src/server/main.ts")];

/** Runs `wisp-server models pull ...`; resolves with the exit code and both outputs. */
async function pullCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...MAIN, "models", "pull", ...args], { env: { ...process.env, WISP_MODEL_MIRROR: "" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("models pull", function () {
  this.timeout(120_000);
  let server: TestServer;
  let hub: HubServer;
  let modelsDir: string;
  let gguf: Buffer;
  let scratch: string;

  before(async () => {
    server = await startServer();
    hub = await HubServer.start();
    modelsDir = path.join(server.dir, "models");
    gguf = await readFile(path.join(modelsDir, `${TEXT_MODEL}.gguf`));
    scratch = await mkdtemp(path.join(os.tmpdir(), "wisp-pull-test-"));
  });
  after(async () => {
    await hub.close();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("downloads through a mirror with progress, resumes a cut connection with a range request, and the running server serves the model", async () => {
    const cutAt = Math.floor(gguf.length * 0.4);
    let cut!: () => void;
    const cutWhen = new Promise<void>((resolve) => (cut = resolve));
    const url = hub.serve("wisp-test/Tiny-Coder-GGUF", "tiny-coder-q8_0.gguf", { body: gguf, cutFirstAfter: cutAt, cutWhen });
    const pulled = pullCli("wisp-test/Tiny-Coder-GGUF/tiny-coder-q8_0.gguf", "--models-dir", modelsDir, "--mirror", hub.origin);
    const part = path.join(modelsDir, "tiny-coder-q8_0.gguf.part");
    await waitFor("the first attempt's bytes on disk", () => (existsSync(part) ? statSync(part).size : 0), (size) => size === cutAt, 60_000);
    cut();
    const { code, stdout, stderr } = await pulled;
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`downloading ${url.replace(/[.?]/g, "\\$&")}`));
    assert.deepEqual(hub.requestsFor(url), [{ path: new URL(url).pathname }, { path: new URL(url).pathname, range: `bytes=${cutAt}-` }]);
    // Progress lines as the file arrives (a log, not a terminal), ending at the whole file.
    const progress = stderr.split("\n").filter((l) => l.startsWith("progress "));
    assert.ok(progress.length >= 2, stderr);
    assert.match(progress.at(-1)!, /\(100%\)/);
    assert.match(stdout, /sha256 [0-9a-f]{64} \(recorded for later downloads\)/);
    assert.match(stdout, /, 2 requests\)/);
    assert.deepEqual(await readFile(path.join(modelsDir, "tiny-coder-q8_0.gguf")), gguf);
    assert.ok(!existsSync(path.join(modelsDir, "tiny-coder-q8_0.gguf.part")));
    const recorded = JSON.parse(await readFile(path.join(modelsDir, recordFileName), "utf8")) as Record<string, { sha256: string; bytes: number }>;
    assert.equal(recorded["tiny-coder-q8_0.gguf"]?.bytes, gguf.length);

    // No restart: the server lists the new model and answers with it.
    const listed = await server.client.models.list();
    assert.ok(listed.data.some((m) => m.id === "tiny-coder-q8_0"));
    const completion = await server.client.completions.create({ model: "tiny-coder-q8_0", prompt: "def add(a, b):", suffix: "\n", max_tokens: 4, temperature: 0 });
    assert.equal(completion.model, "tiny-coder-q8_0");
    assert.ok((completion.usage?.prompt_tokens ?? 0) > 0);
  });

  it("resolves a preset through the mirror with the hub's layout kept", async () => {
    const dir = path.join(scratch, "preset");
    const url = hub.serve("ggml-org/Qwen2.5-Coder-0.5B-Q8_0-GGUF", "qwen2.5-coder-0.5b-q8_0.gguf", { body: gguf });
    const result = await pullModel({ spec: "qwen2.5-coder-0.5b", modelsDir: dir, mirror: `${hub.origin}/` });
    assert.equal(result.modelId, "qwen2.5-coder-0.5b-q8_0");
    assert.equal(result.checked, "first");
    assert.equal(hub.requestsFor(url).length, 1);
    const again = await pullModel({ spec: "qwen2.5-coder-0.5b", modelsDir: dir, mirror: hub.origin });
    assert.equal(again.alreadyPresent, true, "a model already there is not downloaded again");
    assert.equal(hub.requestsFor(url).length, 1);
  });

  it("refuses a later download that differs from the recorded first one, keeping nothing of it", async () => {
    const dir = path.join(scratch, "changed");
    const name = "changing-model.gguf";
    hub.serve("wisp-test/Changing-GGUF", name, { body: gguf });
    await pullModel({ spec: `wisp-test/Changing-GGUF/${name}`, modelsDir: dir, mirror: hub.origin });
    await rm(path.join(dir, name));
    const altered = Buffer.from(gguf);
    altered[altered.length - 1] ^= 0xff;
    hub.serve("wisp-test/Changing-GGUF", name, { body: altered });
    const { code, stderr } = await pullCli(`wisp-test/Changing-GGUF/${name}`, "--models-dir", dir, "--mirror", hub.origin);
    assert.equal(code, 1);
    assert.match(stderr, /changing-model\.gguf does not match the SHA-256 of its first download .*nothing was kept/);
    assert.doesNotMatch(stderr, /usage:/);
    assert.deepEqual((await readdir(dir)).sort(), [recordFileName]);
  });

  it("refuses a wrong published checksum and removes the temporary file", async () => {
    const dir = path.join(scratch, "published");
    hub.serve("wisp-test/Published-GGUF", "published.gguf", { body: gguf });
    const presets = [{ name: "published", role: "completion" as const, description: "", repo: "wisp-test/Published-GGUF", file: "published.gguf", approxBytes: gguf.length, ramGb: 1, licence: "MIT", sha256: { value: "0".repeat(64), source: "test" } }];
    await assert.rejects(pullModel({ spec: "published", modelsDir: dir, mirror: hub.origin, presets }), (e: unknown) => e instanceof PullError && e.kind === "checksum" && /does not match the published SHA-256/.test(e.message));
    assert.deepEqual(await readdir(dir), []);
  });

  it("continues a part left by an interrupted earlier pull", async () => {
    const dir = path.join(scratch, "resume");
    const url = hub.serve("wisp-test/Resume-GGUF", "resume.gguf", { body: gguf });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "resume.gguf.part"), gguf.subarray(0, 1000));
    const seen: number[] = [];
    const result = await pullModel({ spec: url, modelsDir: dir, onProgress: (p) => seen.push(p.resumedFrom) });
    assert.equal(result.resumedFrom, 1000);
    assert.deepEqual(hub.requestsFor(url), [{ path: new URL(url).pathname, range: "bytes=1000-" }]);
    assert.ok(seen.every((r) => r === 1000));
    assert.deepEqual(await readFile(path.join(dir, "resume.gguf")), gguf);
  });

  it("refuses a second download of the same file while the first runs, which then completes", async () => {
    const dir = path.join(scratch, "twice");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const url = hub.serve("wisp-test/Twice-GGUF", "twice.gguf", { body: gguf, holdAfter: 1000, gate });
    const first = pullModel({ spec: url, modelsDir: dir });
    await waitFor("the first download to be under way", () => existsSync(path.join(dir, "twice.gguf.part")), (started) => started);
    await assert.rejects(pullModel({ spec: url, modelsDir: dir }), (e: unknown) => e instanceof PullError && e.kind === "busy" && /twice\.gguf is being downloaded already/.test(e.message));
    release();
    assert.equal((await first).bytes, gguf.length);
    assert.deepEqual(await readFile(path.join(dir, "twice.gguf")), gguf);
    assert.equal(hub.requestsFor(url).length, 1);
  });

  it("keeps what arrived when the disk cannot hold the rest, and resumes from it once there is room", async () => {
    const dir = path.join(scratch, "disk-full");
    await mkdir(dir, { recursive: true });
    const part = path.join(dir, "full.gguf.part");
    await writeFile(part, gguf.subarray(0, 1000));
    const url = hub.serve("wisp-test/Full-GGUF", "full.gguf", { body: gguf, announceBytes: 1e18 });
    await assert.rejects(pullModel({ spec: url, modelsDir: dir }), (e: unknown) => e instanceof PullError && e.kind === "disk-full" && /not enough disk space .*; the 1 KB already downloaded is kept: free some space and pull again to resume/.test(e.message));
    assert.deepEqual(await readFile(part), gguf.subarray(0, 1000));
    hub.serve("wisp-test/Full-GGUF", "full.gguf", { body: gguf });
    const result = await pullModel({ spec: url, modelsDir: dir });
    assert.equal(result.resumedFrom, 1000);
    assert.deepEqual(await readFile(path.join(dir, "full.gguf")), gguf);
  });

  const failures: Array<[string, () => Promise<{ spec: string; kind: string; message: RegExp }>]> = [
    ["a missing file (404)", async () => ({ spec: `${hub.origin}/wisp-test/None-GGUF/resolve/main/none.gguf`, kind: "http", message: /not found \(HTTP 404\)/ })],
    ["a page that is not GGUF", async () => ({ spec: hub.serve("wisp-test/Html", "page.gguf", { body: Buffer.from("<!DOCTYPE html><html>login</html>"), contentType: "text/html" }), kind: "not-gguf", message: /is not a GGUF model file \(it starts with "<!DO"/ })],
    ["a file larger than the disk", async () => ({ spec: hub.serve("wisp-test/Huge", "huge.gguf", { body: gguf, announceBytes: 1e18 }), kind: "disk-full", message: /not enough disk space/ })],
    ["no network (nothing listening)", async () => {
      const closed = await HubServer.start();
      const origin = closed.origin;
      await closed.close();
      return { spec: `${origin}/a/b/resolve/main/c.gguf`, kind: "unreachable", message: /cannot download from http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/ };
    }],
  ];
  for (const [name, setup] of failures) {
    it(`says clearly what went wrong and leaves nothing behind: ${name}`, async () => {
      const dir = path.join(scratch, name.replace(/\W+/g, "-"));
      const { spec, kind, message } = await setup();
      await assert.rejects(pullModel({ spec, modelsDir: dir }), (e: unknown) => e instanceof PullError && e.kind === kind && message.test(e.message));
      assert.deepEqual(existsSync(dir) ? await readdir(dir) : [], []);
    });
  }

  it("refuses plain http to another machine", async () => {
    await assert.rejects(pullModel({ spec: "http://models.example.com/a.gguf", modelsDir: path.join(scratch, "http") }), /must be an https:\/\/ address \(plain http only to this machine/);
  });
});
