import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFile, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { UsageEvent } from "../../src/core/usage/usage-rollup";
import { UsageLog } from "../../src/server/usage/usage-log";

const event = (over: Partial<UsageEvent> = {}): UsageEvent => ({ t: Date.now(), key: "key_a", model: "wisp-tiny", status: 200, prompt_tokens: 7, completion_tokens: 3, images: 0, ...over });
const total = (usage: UsageLog, field: "requests" | "prompt_tokens" | "completion_tokens" | "images") => usage.buckets().reduce((sum, b) => sum + b[field], 0);

describe("the usage log", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-usage-test-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("keeps what was recorded across a restart, in owner-only files", async () => {
    const first = await UsageLog.open(dir);
    first.record(event());
    first.record(event({ key: "key_b", images: 2, model: "pics", prompt_tokens: 0, completion_tokens: 0 }));
    await first.close();
    const second = await UsageLog.open(dir);
    assert.deepEqual(second.buckets(), first.buckets());
    assert.equal(total(second, "requests"), 2);
    assert.equal(total(second, "images"), 2);
    assert.ok(second.lastUsed("key_b")! > 0);
    for (const name of await readdir(second.dir)) assert.equal((await stat(path.join(second.dir, name))).mode & 0o777, 0o600, name);
    assert.equal((await stat(second.dir)).mode & 0o777, 0o700);
    await second.close();
  });

  it("skips a line torn by a crash and counts everything before it", async () => {
    const first = await UsageLog.open(dir);
    for (let i = 0; i < 3; i++) first.record(event());
    await first.close();
    const [segment] = (await readdir(first.dir)).filter((n) => n.endsWith(".jsonl"));
    await appendFile(path.join(first.dir, segment!), '{"t":17000000,"key":"key_a","mod');
    const messages: string[] = [];
    const second = await UsageLog.open(dir, { log: (m) => messages.push(m) });
    assert.equal(total(second, "requests"), 3);
    assert.equal(total(second, "prompt_tokens"), 21);
    assert.match(messages.join("\n"), /skipped 1 unreadable line/);
    // Counting goes on normally after it.
    second.record(event());
    await second.close();
    const third = await UsageLog.open(dir);
    assert.equal(total(third, "requests"), 4);
    await third.close();
  });

  it("compacts full segments into the rollup and deletes them", async () => {
    const usage = await UsageLog.open(dir, { segmentBytes: 1024 });
    for (let i = 0; i < 100; i++) usage.record(event({ completion_tokens: i }));
    await usage.flush();
    const files = await readdir(usage.dir);
    assert.ok(files.includes("rollup.json"), files.join(", "));
    assert.ok(files.filter((n) => n.endsWith(".jsonl")).length <= 1, files.join(", "));
    await usage.close();
    const reopened = await UsageLog.open(dir);
    assert.equal(total(reopened, "requests"), 100);
    assert.equal(total(reopened, "completion_tokens"), (99 * 100) / 2);
    await reopened.close();
  });

  it("never counts twice when a compaction stopped before deleting what it compacted", async () => {
    const usage = await UsageLog.open(dir);
    usage.record(event());
    usage.record(event());
    await usage.close();
    const segment = (await readdir(usage.dir)).find((n) => n.endsWith(".jsonl"))!;
    const kept = await readFile(path.join(usage.dir, segment), "utf8");
    // Reopening compacts the segment; put it back as if the crash came right after the rollup.
    const reopened = await UsageLog.open(dir);
    await reopened.close();
    assert.ok(!(await readdir(usage.dir)).includes(segment), "the compacted segment is deleted");
    await writeFile(path.join(usage.dir, segment), kept);
    const again = await UsageLog.open(dir);
    assert.equal(total(again, "requests"), 2);
    assert.ok(!(await readdir(usage.dir)).includes(segment), "the leftover segment is deleted");
    await again.close();
  });

  it("says which file is broken rather than starting with lost counts", async () => {
    const usage = await UsageLog.open(dir);
    usage.record(event());
    await usage.close();
    await UsageLog.open(dir).then((u) => u.close()); // compacts into rollup.json
    await writeFile(usage.rollupFile, "{ not json");
    await assert.rejects(UsageLog.open(dir), /rollup\.json is unreadable/);
  });

  it("refuses a second log on the same data folder while the first is open (it would delete the first's segment), naming the folder and the pid", async () => {
    const first = await UsageLog.open(dir);
    for (let i = 0; i < 5; i++) first.record(event());
    await first.flush();
    const refused = new RegExp(`another wisp-server \\(pid ${process.pid}\\) is using the data folder ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: stop it, or give this one another --data-dir`);
    await assert.rejects(UsageLog.open(dir), refused);
    for (let i = 0; i < 7; i++) first.record(event());
    await first.close();
    const second = await UsageLog.open(dir);
    assert.equal(total(second, "requests"), 12);
    await second.close();
  });

  it("takes over the data folder of a log whose process was killed, or that was left from before the machine started", async () => {
    const writer = path.join(import.meta.dirname, "support", "usage-writer.ts");
    const child = spawn(process.execPath, ["--import", "tsx", writer, dir, "5"], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    await assert.rejects(UsageLog.open(dir), new RegExp(`pid ${child.pid}\\)`));
    child.kill("SIGKILL");
    await exited;
    const after = await UsageLog.open(dir);
    assert.ok(total(after, "requests") >= 5);
    await after.close();
    // A live pid in a lock written before the last boot is another process's by now.
    const lock = path.join(dir, "server.lock");
    await writeFile(lock, String(process.ppid));
    const beforeBoot = (Date.now() - os.uptime() * 1000) / 1000 - 3600;
    await utimes(lock, beforeBoot, beforeBoot);
    await (await UsageLog.open(dir)).close();
  });

  it("takes over a lock whose pid is now another live process's (a container's restarted server gets the killed one's pid)", async () => {
    const writer = path.join(import.meta.dirname, "support", "usage-writer.ts");
    const child = spawn(process.execPath, ["--import", "tsx", writer, dir, "5"], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.kill("SIGKILL");
    await exited;
    // The killed server's lock as a restarted container's server finds it: naming its own pid, live.
    const lock = path.join(dir, "server.lock");
    const left = await readFile(lock, "utf8");
    await writeFile(lock, left.replace(String(child.pid), String(process.pid)));
    const usage = await UsageLog.open(dir);
    assert.ok(total(usage, "requests") >= 5);
    await usage.close();
  });

  it("survives being killed at any moment while writing and compacting", async () => {
    const writer = path.join(import.meta.dirname, "support", "usage-writer.ts");
    const batch = 25;
    let written = 0;
    for (let round = 0; round < 4; round++) {
      const child = spawn(process.execPath, ["--import", "tsx", writer, dir, String(batch)], { stdio: ["ignore", "pipe", "inherit"] });
      let last = 0;
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const matches = [...output.matchAll(/written (\d+)/g)];
        if (matches.length > 0) last = Number(matches.at(-1)![1]);
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // Kill it mid-flight: after it has written something, at a moment that varies per round.
      while (last < 50 + round * 37) await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill("SIGKILL");
      await exited;
      written += last;
      const usage = await UsageLog.open(dir);
      const counted = total(usage, "requests");
      // Everything confirmed is there; at most the batch in flight (and its torn line) more.
      assert.ok(counted >= written && counted <= written + batch, `round ${round}: counted ${counted}, confirmed ${written}`);
      assert.equal(total(usage, "prompt_tokens"), counted * 3);
      written = counted;
      await usage.close();
    }
  });
});
