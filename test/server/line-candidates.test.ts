import assert from "node:assert/strict";
import type { LlamaModel, Token } from "node-llama-cpp";
import { lineCandidates } from "../../src/server/engines/text/line-candidates";
import { metricsOf, readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

// Greedy one-line fill-in-the-middle requests, as ghost text sends them mid-line, answered with a
// line the file already has, chosen by the model's likelihood (see line-choice.ts).
const FILE = [
  "export function totals(items: Item[]) {",
  "  const price = items.reduce((sum, item) => sum + item.price, 0);",
  "  const weight = items.reduce((sum, item) => sum + item.weight, 0);",
  "  const count = items.reduce((sum, item) => sum + item.count, 0);",
  "  const tax = items.red",
].join("\n");
const SUFFIX = "\n  return { price, weight, count, tax };\n}\n";
const ONE_LINE = { model: TEXT_MODEL, temperature: 0, max_tokens: 48, stop: ["\n"] };

describe("POST /v1/completions: one-line answers copied from the file, chosen by the model", function () {
  this.timeout(120_000);
  let server: TestServer;
  let modelOnly: TestServer;
  before(async () => {
    // The copies alone (--no-own-line): the random-weight model's own lines are no match for them
    // (own-line.test.ts has the shipped model's own line competing).
    server = await startServer({ ownLine: false });
    modelOnly = await startServer({ lineCandidates: false });
  });
  after(async () => {
    await server.close();
    await modelOnly.close();
  });

  const complete = async (on: TestServer, body: Record<string, unknown>) => {
    const response = await on.fetch("/v1/completions", { json: { ...ONE_LINE, ...body } });
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as { choices: { text: string; finish_reason: string }[]; usage: { completion_tokens: number } };
  };
  const copied = async (on: TestServer) => (await metricsOf(on)).linesCopied;
  const textModel = (on: TestServer): Promise<LlamaModel> => on.deps.textEngine.model(TEXT_MODEL, on.deps.registry.get(TEXT_MODEL)!.path);

  it("a line the file offers once is the answer, streamed the same, counted in usage and /metrics", async () => {
    const prefix = "const greeting = formatName(user.first, user.last);\nconsole.log(greeting);\nconst farewell = formatName(user.fi";
    const before = await copied(server);
    const response = await server.fetch("/v1/completions", { json: { ...ONE_LINE, prompt: prefix, suffix: "\n" } });
    assert.equal(response.headers.get("x-wisp-prompt-tokens-evaluated"), "0", "one line to offer: nothing to evaluate");
    const answer = (await response.json()) as Awaited<ReturnType<typeof complete>>;
    assert.deepEqual(answer.choices.map((c) => [c.text, c.finish_reason]), [["rst, user.last);", "stop"]]);
    assert.ok(answer.usage.completion_tokens > 0);
    assert.equal(await copied(server), before + 1);
    const stream = await server.fetch("/v1/completions", { json: { ...ONE_LINE, prompt: prefix, suffix: "\n", stream: true } });
    const chunks = (await readSse(stream)).filter((e): e is { choices: { text: string }[] } => e !== "[DONE]");
    assert.equal(chunks.map((c) => c.choices[0]?.text ?? "").join(""), "rst, user.last);");
    const own = await complete(modelOnly, { prompt: prefix, suffix: "\n" });
    assert.notEqual(own.choices[0]!.text, "rst, user.last);", "with --no-line-candidates the random-weight model writes its own line");
  });

  it("of several lines, the one whose tokens and line end the model finds most likely, as node-llama-cpp's own probabilities score them", async () => {
    const lines = lineCandidates(FILE, SUFFIX);
    assert.deepEqual(lines, ["uce((sum, item) => sum + item.count, 0);", "uce((sum, item) => sum + item.weight, 0);", "uce((sum, item) => sum + item.price, 0);"]);
    const response = await server.fetch("/v1/completions", { json: { ...ONE_LINE, prompt: FILE, suffix: SUFFIX } });
    assert.ok(Number(response.headers.get("x-wisp-prompt-tokens-evaluated")) > 50, "the prompt is evaluated to score the lines");
    const answer = ((await response.json()) as Awaited<ReturnType<typeof complete>>).choices[0]!.text;
    // The same scores, computed here with node-llama-cpp's public API on a context of the test's own.
    const model = await textModel(server);
    const { prompt, heal } = server.deps.textEngine.healedInfill(model, FILE, SUFFIX, 48);
    const context = await model.createContext({ contextSize: 2048 });
    try {
      const sequence = context.getSequence();
      await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1) as Token[]);
      const ends = new Set(Array.from({ length: model.fileInfo.metadata.tokenizer.ggml.tokens.length }, (_, t) => t as Token).filter((t) => model.isEogToken(t) || model.detokenize([t]).startsWith("\n")));
      const scores: number[] = [];
      for (const line of lines) {
        const tokens = model.tokenize((heal?.text ?? "") + line, false);
        const out = await sequence.controlledEvaluate([prompt.at(-1)!, ...tokens].map((t) => [t, { generateNext: { probabilities: true } }] as [Token, { generateNext: { probabilities: true } }]));
        await sequence.eraseContextTokenRanges([{ start: sequence.nextTokenIndex - tokens.length - 1, end: sequence.nextTokenIndex }]);
        const end = [...out.at(-1)!.next.probabilities!].reduce((a, [t, p]) => a + (ends.has(t) ? p : 0), 0);
        scores.push(tokens.reduce((a, t, i) => a + Math.log(out[i]!.next.probabilities!.get(t)!), 0) + Math.log(end));
      }
      assert.equal(answer, lines[scores.indexOf(Math.max(...scores))], `scores ${scores.map((s) => s.toFixed(3)).join(", ")}`);
    } finally {
      await context.dispose();
    }
    const pool = await startServer({ nativeStep: false });
    try {
      assert.equal((await complete(pool, { prompt: FILE, suffix: SUFFIX })).choices[0]!.text, answer, "node-llama-cpp's own evaluation chooses the same where decode-step is not built");
    } finally {
      await pool.close();
    }
  });

  it("what the cursor's line has after the cursor ends the copied line and is not written twice", async () => {
    const prefix = "assert.equal(parse(input), expected);\nassert.equal(pars";
    const answer = await complete(server, { prompt: prefix, suffix: ");\nnext();\n" });
    assert.equal(answer.choices[0]!.text, "e(input), expected");
  });

  it("after `</` in markup, the innermost open element's closing tag, not a tag copied from elsewhere in the file", async () => {
    const prefix = [
      "  return (",
      "    <FormControl>",
      '      <FormLabel htmlFor="email">Email</FormLabel>',
      "    </FormControl>",
      "    <FormControl isInvalid={!!errors.name}>",
      '      <FormLabel htmlFor="name">Name</FormLabel>',
      "      {errors.name && (",
      "        <FormErrorMessage>",
      "          {errors.name.message}",
      "        </",
    ].join("\n");
    assert.deepEqual(lineCandidates(prefix, "\n"), ["FormControl>"], "the copy the file offers");
    const before = await copied(server);
    const answer = await complete(server, { prompt: prefix, suffix: "\n      )}\n    </FormControl>\n" });
    assert.deepEqual(answer.choices.map((c) => [c.text, c.finish_reason]), [["FormErrorMessage>", "stop"]]);
    assert.equal(await copied(server), before + 1);
  });

  it("in a list of lines of one shape, the sibling's line with the cursor line's name in it, where no copy fits", async () => {
    const prefix = ["class codes(IntEnum):", '    BAD_GATEWAY = 502, "Bad Gateway"', '    SERVICE_UNAVAILABLE = 503, "Service Unavailable"', "    GATEWAY_TIMEOUT = 504, "].join("\n");
    const suffix = '\n    HTTP_VERSION_NOT_SUPPORTED = 505, "HTTP Version Not Supported"\n';
    assert.deepEqual(lineCandidates(prefix, suffix), [], "no tail of the line occurs again");
    const before = await copied(server);
    const answer = await complete(server, { prompt: prefix, suffix });
    assert.deepEqual(answer.choices.map((c) => [c.text, c.finish_reason]), [['"Gateway Timeout"', "stop"]]);
    assert.equal(await copied(server), before + 1);
  });

  it("a copy that cannot be the line is not offered: it closes a bracket its line never opened, or a Python header lacks its colon", async () => {
    const cases = [
      ["  zoom(z) {", "    this.setZoom(this.clampZoom(z));", "  }", "", "  clampZoom("].join("\n"),
      ["def check(form):", "    raise ValidationError", "    try:", "        form.run()", "    except Validat"].join("\n"),
    ];
    for (const prefix of cases) {
      const before = await copied(server);
      const answer = (await complete(server, { prompt: prefix, suffix: "\n" })).choices[0]!.text;
      const own = (await complete(modelOnly, { prompt: prefix, suffix: "\n" })).choices[0]!.text;
      assert.notEqual(answer, prefix.endsWith("(") ? "z));" : "ionError");
      assert.equal(answer, own, "the model's own line, as with --no-line-candidates");
      assert.equal(await copied(server), before, "no line copied");
    }
  });

  it("a line longer than max_tokens is cut there, finish_reason length", async () => {
    const prefix = "const greeting = formatName(user.first, user.last);\nconst farewell = formatName(user.fi";
    const answer = await complete(server, { prompt: prefix, suffix: "\n", max_tokens: 2 });
    assert.equal(answer.choices[0]!.finish_reason, "length");
    assert.ok("rst, user.last);".startsWith(answer.choices[0]!.text) && answer.choices[0]!.text.length > 0, JSON.stringify(answer.choices[0]!.text));
  });

  it("sampling, logit_bias, logprobs, n > 1, no line-break stop or no suffix: the model's own generation, as with --no-line-candidates", async () => {
    const before = await copied(server);
    const bodies: Record<string, unknown>[] = [
      { suffix: SUFFIX, temperature: 0.8, seed: 3 },
      { suffix: SUFFIX, logit_bias: { "5": -1 } },
      { suffix: SUFFIX, logprobs: 1 },
      { suffix: SUFFIX, n: 2 },
      { suffix: SUFFIX, stop: [";"] },
      {},
    ];
    for (const body of bodies) {
      const [on, off] = await Promise.all([complete(server, { prompt: FILE, ...body }), complete(modelOnly, { prompt: FILE, ...body })]);
      assert.deepEqual(on.choices.map((c) => c.text), off.choices.map((c) => c.text), JSON.stringify(body));
    }
    assert.equal(await copied(server), before);
  });
});
