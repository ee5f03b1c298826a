import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { buildImageRequest } from "../../src/core/playground/image-request";
import { requestSnippet } from "../../src/core/snippets/request-snippets";
import { repoRoot } from "../harness/toolchain";
import { IMAGE_MODEL } from "./images-helpers";
import { startServer, type TestServer } from "./server-fixture";

const run = promisify(execFile);

describe("the console playground's View code, run for real", function () {
  this.timeout(180_000);
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startServer();
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-snippet-"));
    // The snippet imports "openai" as a user's project would have it; .mts: it awaits at its top level (an ES module).
    await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the image playground's TypeScript saves the image the playground showed (same seed, same bytes)", async () => {
    const built = buildImageRequest({ model: IMAGE_MODEL, prompt: "a red fox", negativePrompt: "", size: "64x64", steps: "2", seed: "7" });
    assert.ok(built.ok);
    // What the playground sends and shows.
    const shown = (await (await server.fetch("/v1/images/generations", { json: built.body })).json()) as { data: { b64_json: string }[]; output_format?: string };
    await writeFile(path.join(dir, "image.mts"), requestSnippet("typescript", { endpoint: "images.generations", body: built.body }, { baseUrl: server.baseURL }));
    const { stdout } = await run(process.execPath, ["--import", "tsx", "image.mts"], { cwd: dir, env: { ...process.env, WISP_API_KEY: server.key } });
    const file = `image.${shown.output_format ?? "png"}`;
    assert.match(stdout, new RegExp(`saved ${file}`));
    assert.ok((await readFile(path.join(dir, file))).equals(Buffer.from(shown.data[0]!.b64_json, "base64")), "the saved image is the playground's");
  });
});
