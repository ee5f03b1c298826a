import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp";
import { outOfScopeNames } from "../../src/server/engines/text/out-of-scope-names";
import { readSse, startServer, withShippedCoder, type TestServer } from "./server-fixture";

// A greedy one-line fill-in-the-middle answer that is the model's own line (the file offers none to
// copy) passes the same scope check as a copied line (see scoped-choice.ts). The shipped model:
// the random-weight one never writes a name of the file.
const MODEL = "wisp-coder";
const FILE = [
  "/** Small helpers to try completions on. */",
  "export function area(width: number, height: number): number {",
  "  return width * height;",
  "}",
  "",
  "export function volume(w: number, h: number, d: number): number {",
  "  return ",
].join("\n");
const SUFFIX = "\n}\n";
const ONE_LINE = { model: MODEL, temperature: 0, max_tokens: 48, stop: ["\n"], prompt: FILE, suffix: SUFFIX };

describe("POST /v1/completions: the model's own line is checked for another function's names", function () {
  this.timeout(120_000);
  let server: TestServer;
  let modelOnly: TestServer;
  before(async () => {
    server = await startServer({ prepare: withShippedCoder });
    modelOnly = await startServer({ prepare: withShippedCoder, lineCandidates: false });
  });
  after(async () => {
    await server.close();
    await modelOnly.close();
  });

  const complete = async (on: TestServer, body: Record<string, unknown> = {}) => {
    const response = await on.fetch("/v1/completions", { json: { ...ONE_LINE, ...body } });
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as { choices: { text: string; finish_reason: string }[]; usage: { completion_tokens: number } };
  };

  it("a line using area's parameters in volume is generated again without them, and streams as one piece", async () => {
    const outOfScope = outOfScopeNames(FILE, SUFFIX);
    const raw = await complete(modelOnly);
    const rawLine = raw.choices[0]!.text;
    assert.notDeepEqual(outOfScope(rawLine), [], `the model alone copies a line that cannot compile here: ${JSON.stringify(rawLine)}`);
    const answer = await complete(server);
    const line = answer.choices[0]!.text;
    assert.deepEqual(outOfScope(line), [], `the server's answer: ${JSON.stringify(line)}`);
    assert.notEqual(line, "");
    assert.equal(answer.choices[0]!.finish_reason, "stop");
    assert.ok(answer.usage.completion_tokens > raw.usage.completion_tokens, "both lines' tokens were generated");
    const stream = await server.fetch("/v1/completions", { json: { ...ONE_LINE, stream: true } });
    const texts = (await readSse(stream)).filter((e): e is { choices: { text: string }[] } => e !== "[DONE]").map((c) => c.choices[0]?.text ?? "").filter((t) => t !== "");
    assert.deepEqual(texts, [line], "held back until the line ended, then sent whole");
  });

  it("a line in scope is the model's line as it was; one that cannot be mended is no answer at all", async () => {
    const entry = server.deps.registry.get(MODEL)!;
    const engine = server.deps.textEngine;
    const model = await engine.model(MODEL, entry.path);
    const prefix = `${FILE}Math.`;
    const { prompt, heal } = engine.healedInfill(model, prefix, SUFFIX, 48);
    const greedy = { temperature: 0, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map<Token, number>() };
    const generate = async (outOfScope?: (line: string) => readonly string[]) => {
      const streamed: string[] = [];
      const file = outOfScope && { lines: [], outOfScope };
      const result = await engine.generate(MODEL, entry.path, { prompt, heal, file, promptParam: "prompt", n: 1, maxTokens: 48, stop: ["\n"], sampling: greedy, signal: new AbortController().signal, onText: (_, text) => streamed.push(text) });
      return { text: result.choices[0]!.text, tokens: result.completionTokens, streamed: streamed.join("") };
    };
    const plain = await generate();
    assert.notEqual(plain.text, "");
    assert.deepEqual(await generate(() => []), plain, "in scope: the same line, streamed whole");
    // A name no token spells whole cannot be barred: the line would come again, so none is offered.
    const refused = await generate((line) => (line === "" ? [] : ["notAToken_xyz"]));
    assert.deepEqual(refused, { text: "", tokens: plain.tokens, streamed: "" });
  });
});
