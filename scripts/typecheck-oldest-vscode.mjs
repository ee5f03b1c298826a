// `npm run typecheck`, second part: the extension type-checked against the API of the oldest VS Code
// it supports (package.json's engines.vscode), whose types @types/vscode holds, so that a use of a
// newer API cannot ship unnoticed. The first part (tsconfig.json) checks everything against the
// newest API's types, @types/vscode-current; the files of a newer API (newerApi below) are checked
// there only: the extension loads them only where the editor has that API, and only their gate may
// import them.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The editor's chat models (vscode.lm's provider API): gated by register-language-models.ts. */
const newerApi = {
  gate: "src/extension/language-models/register-language-models.ts",
  files: ["src/extension/language-models/wisp-chat-provider.ts", "src/extension/language-models/vscode-lm-parts.ts"],
};

const problems = [];
const engine = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.vscode;
const oldestTypes = join(root, "node_modules/@types/vscode");
const oldest = JSON.parse(readFileSync(join(oldestTypes, "package.json"), "utf8")).version;
if (engine !== `^${oldest}`) problems.push(`package.json's engines.vscode is ${engine}, but @types/vscode is ${oldest}: they name the same version`);

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")) };
const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), { paths: { vscode: [join(oldestTypes, "index.d.ts")] } }, host);
const extensionFiles = config.fileNames.filter((file) => relative(root, file).startsWith("src/extension/"));
const program = ts.createProgram(extensionFiles, config.options);
const exempt = new Set(newerApi.files.map((file) => join(root, file)));
const diagnostics = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file === undefined || !exempt.has(resolve(diagnostic.file.fileName)));

// Only the gate (and the newer files themselves) may import a newer file.
for (const file of program.getSourceFiles()) {
  const path = resolve(file.fileName);
  if (!path.startsWith(join(root, "src/")) || exempt.has(path) || path === join(root, newerApi.gate)) continue;
  for (const { fileName } of ts.preProcessFile(file.text).importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const target = resolve(dirname(path), fileName.replace(/\.js$/, "")) + ".ts";
    if (exempt.has(target)) problems.push(`${relative(root, path)} imports ${relative(root, target)}, which uses an API newer than VS Code ${oldest}: only ${newerApi.gate} may`);
  }
}

if (diagnostics.length > 0) {
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stderr.write(format(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => "\n" }));
  problems.push(`${diagnostics.length} error(s) against the API of VS Code ${oldest}, the oldest package.json's engines.vscode accepts`);
}
for (const problem of problems) process.stderr.write(`typecheck-oldest-vscode: ${problem}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
