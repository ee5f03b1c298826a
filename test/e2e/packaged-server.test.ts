import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import OpenAI from "openai";
import { createApiKey, startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import { installVsix } from "../harness/code-server";
import { freePort } from "../harness/free-port";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot, type Toolchain } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";

/** Native code lives only in these folders of the package, all for linux-x64 CPUs. */
const nativeFolders = [
  // The server's native generation step, built by `npm ci` (scripts/build-native.mjs).
  "build/native/",
  "node_modules/@node-llama-cpp/linux-x64/",
  "node_modules/onnxruntime-node/bin/napi-v6/linux/x64/",
  "node_modules/@img/sharp-linux-x64/",
  "node_modules/@img/sharp-libvips-linux-x64/",
];

describe("The packaged .vsix and its local server, installed as VS Code installs it", function () {
  this.timeout(300_000);
  const temp = new TempDirs();
  let toolchain: Toolchain;
  let vsix: string;
  /** The installed extension's folder. */
  let extension: string;
  let server: LocalServer | undefined;

  before(() => {
    toolchain = ensureToolchain();
    vsix = ensureVsix();
    const dirs = { home: temp.make("vsix-home"), userDataDir: temp.make("vsix-user-data"), extensionsDir: temp.make("vsix-extensions") };
    installVsix(toolchain, vsix, dirs);
    const [installed] = readdirSync(dirs.extensionsDir).filter((name) => name.startsWith("wisp.wisp-"));
    assert.ok(installed, `no wisp extension in ${readdirSync(dirs.extensionsDir).join(", ")}`);
    extension = join(dirs.extensionsDir, installed);
  });
  after(async () => {
    await server?.process.stop();
    temp.removeAll();
  });

  it("is built for linux-x64 and holds the server with the CPU engines for it only", () => {
    assert.match(vsix, /wisp-linux-x64-[\d.]+\.vsix$/);
    assert.match(readFileSync(join(extension, "package.json"), "utf8"), /"main": "\.\/dist\/extension\.cjs"/);
    const serverDir = join(extension, "dist/server");
    assert.ok(existsSync(join(serverDir, "main.js")));
    const files = walk(serverDir).map((file) => relative(serverDir, file));
    const binaries = files.filter((file) => /\.(node|so(\.[\d.]+)?)$/.test(file));
    assert.ok(binaries.length > 0);
    assert.deepEqual(binaries.filter((file) => !nativeFolders.some((folder) => file.startsWith(folder))), [], "no native code elsewhere");
    for (const folder of nativeFolders) assert.ok(binaries.some((file) => file.startsWith(folder)), `${folder} is shipped`);
    assert.deepEqual(readdirSync(join(serverDir, "node_modules/@node-llama-cpp")), ["linux-x64"]);
    assert.deepEqual(readdirSync(join(serverDir, "node_modules/onnxruntime-node/bin/napi-v6")), ["linux"]);
    assert.deepEqual(files.filter((file) => /cuda|vulkan|metal|darwin|win32|arm64/i.test(file)), [], "no other platform or GPU build");
    // Models are generated on first start (or come from the repository's models/ folder).
    const shipped = existsSync(join(repoRoot, "models")) ? readdirSync(join(repoRoot, "models")).sort() : [];
    assert.deepEqual(existsSync(join(extension, "models")) ? readdirSync(join(extension, "models")).sort() : [], shipped);
    assert.deepEqual(files.filter((file) => /\.(gguf|onnx)$/.test(file)), []);
    const mib = statSync(vsix).size / 1024 / 1024;
    console.log(`      ${vsix.split("/").at(-1)}: ${mib.toFixed(1)} MiB, ${files.length} files in dist/server`);
    assert.ok(mib < 60, `${mib.toFixed(1)} MiB`);
  });

  it("its server runs from the installed folder on VS Code's Node, loading nothing from the repository, and serves text and images", async () => {
    const dataDir = temp.make("vsix-data");
    // VS Code's own Node (code-server's), as the extension runs it.
    const binary = { serverScript: "dist/server/main.js", node: join(toolchain.nodeBin, "node") };
    const key = createApiKey(extension, dataDir, "vsix-test", binary);
    const log: string[] = [];
    server = await startLocalServer({
      root: extension,
      ...binary,
      // Away from the repository, whose node_modules Node would otherwise find by walking up.
      cwd: temp.make("vsix-cwd"),
      port: await freePort(),
      modelsDir: temp.make("vsix-models"),
      dataDir,
      log: { write: (chunk) => log.push(chunk.toString()) },
    });
    const client = new OpenAI({ apiKey: key, baseURL: server.baseUrl });

    const models = (await client.models.list()).data.map((m) => m.id).sort();
    assert.deepEqual(models, ["wisp-tiny", "wisp-tiny-diffusion"]);
    // Greedy: at the default temperature the random-weight model can sample its end token early.
    const completion = await client.completions.create({ model: "wisp-tiny", prompt: "def add(a, b):\n    return ", suffix: "\n", max_tokens: 8, logprobs: 2, temperature: 0 });
    assert.equal(completion.usage?.completion_tokens, 8);
    // json_object needs node-llama-cpp's grammar files: they must be in the package too.
    const chat = await client.chat.completions.create({ model: "wisp-tiny", messages: [{ role: "user", content: "hi" }], max_tokens: 8, response_format: { type: "json_object" } });
    assert.match(chat.choices[0]?.message.content ?? "", /^\s*[{[]/);
    for (const [format, magic] of [["png", "89504e47"], ["webp", "52494646"], ["jpg", "ffd8ff"]] as const) {
      const image = await client.images.generate({ model: "wisp-tiny-diffusion", prompt: "a red fox", size: "64x64", response_format: "b64_json", ...{ response_extension: format, num_inference_steps: 2 } });
      assert.equal(Buffer.from(image.data?.[0]?.b64_json ?? "", "base64").subarray(0, magic.length / 2).toString("hex"), magic, format);
    }

    const pid = server.process.child.pid!;
    assert.equal(realpathSync(`/proc/${pid}/exe`), realpathSync(join(toolchain.nodeBin, "node")));
    const loaded = [...new Set(readFileSync(`/proc/${pid}/maps`, "utf8").split("\n").map((line) => line.split(/\s+/)[5] ?? "").filter((path) => /\.(node|so)(\.|$)/.test(path)))];
    const fromPackages = loaded.filter((path) => path.includes("/node_modules/"));
    for (const engine of ["llama-addon.node", "libonnxruntime.so", "onnxruntime_binding.node", "sharp-linux-x64", "libvips-cpp.so"]) {
      assert.ok(fromPackages.some((path) => path.includes(engine)), `${engine} loaded: ${fromPackages.join(", ")}`);
    }
    assert.deepEqual(fromPackages.filter((path) => !path.startsWith(realpathSync(extension))), [], "every engine comes from the installed extension");
    assert.ok(loaded.includes(realpathSync(join(extension, "dist/server/build/native/decode-step.node"))), `the native step from the package: ${loaded.filter((path) => path.includes("decode-step")).join(", ")}`);
    assert.match(log.join(""), /generation steps on the server's thread \(decode-step\)/);
    assert.ok(!log.join("").includes("Failed to load a prebuilt binary"), log.join(""));
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}
