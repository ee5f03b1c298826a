// Files of llama.cpp's own source, read from the git bundle node-llama-cpp ships (its `llama/`
// folder): the vocabulary-only GGUFs of real model families (models/ggml-vocab-*.gguf), the chat
// templates published models carry (models/templates/) and llama.cpp's template tests. Nothing is
// downloaded; the bundle is unpacked once per version into the system's temporary folder.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const bundle = path.resolve(import.meta.dirname, "../../../node_modules/node-llama-cpp/llama/gitRelease.bundle");

let unpacked: Promise<string> | undefined;

async function unpack(): Promise<string> {
  const info = await stat(bundle).catch(() => {
    throw new Error(`${bundle} is missing: node-llama-cpp no longer ships llama.cpp's source bundle, which holds the real vocabularies these tests use`);
  });
  const dir = path.join(os.tmpdir(), `wisp-llama-cpp-source-${info.size}-${Math.floor(info.mtimeMs)}`);
  if (existsSync(dir)) return dir;
  const temp = await mkdtemp(`${dir}.tmp-`);
  try {
    await run("git", ["init", "-q", "--bare", temp]);
    await run("git", ["--git-dir", temp, "fetch", "-q", bundle, "HEAD:refs/heads/source"]);
    await rename(temp, dir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (!existsSync(dir)) throw error; // another process unpacked it first
  }
  return dir;
}

/** The bytes of `file` (a path in llama.cpp's repository) at the bundled release. */
export async function llamaCppSourceFile(file: string): Promise<Buffer> {
  unpacked ??= unpack();
  const { stdout } = await run("git", ["--git-dir", await unpacked, "cat-file", "blob", `source:${file}`], { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** One chat template from llama.cpp's tests/test-chat-template.cpp, by the model name it is listed under. */
export async function testedChatTemplate(modelName: string): Promise<string> {
  const source = (await llamaCppSourceFile("tests/test-chat-template.cpp")).toString("utf8");
  const at = source.indexOf(`/* .name= */ "${modelName}"`);
  const literal = at < 0 ? undefined : /\/\* \.template_str= \*\/ ("(?:[^"\\]|\\.)*")/.exec(source.slice(at))?.[1];
  if (!literal) throw new Error(`no chat template for ${modelName} in llama.cpp's tests/test-chat-template.cpp`);
  return JSON.parse(literal) as string;
}
