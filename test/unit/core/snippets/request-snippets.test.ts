import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { typeErrors } from "../../../helpers/type-errors";
import { pythonLiteral, requestSnippet, shellQuote, type SnippetRequest } from "../../../../src/core/snippets/request-snippets";

const target = { baseUrl: "http://127.0.0.1:8765/v1/" };

const chat: SnippetRequest = {
  endpoint: "chat.completions",
  body: {
    model: "wisp-tiny",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "What's `a' + \"b\"? $HOME\n\\n" },
    ],
    temperature: 0.2,
    max_tokens: 64,
    top_k: 40,
    stream: true,
    stream_options: { include_usage: true },
  },
};
const image: SnippetRequest = {
  endpoint: "images.generations",
  body: { model: "wisp-tiny-diffusion", prompt: "a red fox", width: 64, height: 64, seed: 7, num_inference_steps: 2, response_format: "b64_json", response_extension: "png" },
};
const completion: SnippetRequest = { endpoint: "completions", body: { model: "wisp-tiny", prompt: "def add(a, b):", max_tokens: 8, stop: ["\n"], echo: false } };

/** A tool loop: the call the model made and the tool's result go back, with the tool offered again. */
const toolLoop = [
  { role: "user", content: "Weather in Paris?" },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } }] },
  { role: "tool", tool_call_id: "call_1", content: '{"temperature": 21}' },
];
const weatherTool = { type: "function", function: { name: "get_weather", description: "Weather in a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };
const { top_k: _topK, temperature: _t, max_tokens: _m, ...streamed } = chat.body;
const withTools: SnippetRequest = { ...chat, body: { ...streamed, messages: toolLoop, tools: [weatherTool], tool_choice: { type: "function", function: { name: "get_weather" } } } };

describe("request snippets (View as Code)", function () {
  this.timeout(60_000);

  it("curl: the exact body, the key from the environment, -N for streams", () => {
    const curl = requestSnippet("curl", chat, target);
    assert.match(curl, /^curl -N 'http:\/\/127\.0\.0\.1:8765\/v1\/chat\/completions' \\/);
    assert.match(curl, /-H "Authorization: Bearer \$WISP_API_KEY"/);
    // The shell hands curl the body byte for byte: quotes, dollars and backslashes included.
    const printBody = `curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && printf '%s' "$2"; shift; done; }\n`;
    const body = execFileSync("bash", ["-c", printBody + curl], { encoding: "utf8", env: { ...process.env, WISP_API_KEY: "k" } });
    assert.deepEqual(JSON.parse(body), chat.body);
    assert.doesNotMatch(requestSnippet("curl", completion, target), /-N/);
  });

  it("shellQuote survives single quotes", () => {
    assert.equal(execFileSync("bash", ["-c", `printf '%s' ${shellQuote("it's a 'test' $X")}`], { encoding: "utf8" }), "it's a 'test' $X");
  });

  it("TypeScript: type-checks against the openai SDK, with extras allowed and the key read from the environment", () => {
    for (const request of [chat, image, completion, { ...chat, body: { ...chat.body, stream: false, top_k: undefined } }]) {
      const source = requestSnippet("typescript", request, { ...target, apiKeyEnv: "MY_KEY" });
      assert.match(source, /apiKey: process\.env\.MY_KEY/);
      assert.deepEqual(typeErrors(source), [], source);
    }
    assert.match(requestSnippet("typescript", chat, target), /top_k: not in OpenAI's API/);
  });

  it("TypeScript: a snippet with a real type error is caught (the check can fail)", () => {
    const broken = requestSnippet("typescript", completion, target).replace('"prompt"', '"prompt_text"');
    assert.notDeepEqual(typeErrors(broken), []);
  });

  it("Python: valid syntax, SDK-known fields as arguments, the rest in extra_body", () => {
    const py = requestSnippet("python", chat, target);
    assert.match(py, /api_key=os\.environ\["WISP_API_KEY"\]/);
    assert.match(py, /extra_body=\{\n\s+"top_k": 40,/);
    assert.match(py, /stream=True,/);
    for (const request of [chat, image, completion]) {
      execFileSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: requestSnippet("python", request, target) });
    }
  });

  it("tools: all three snippets send them as SDK fields and print the calls the model makes", () => {
    const printBody = `curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && printf '%s' "$2"; shift; done; }\n`;
    const body = execFileSync("bash", ["-c", printBody + requestSnippet("curl", withTools, target)], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(body), withTools.body);
    for (const request of [withTools, { ...withTools, body: { ...withTools.body, stream: false, stream_options: undefined } }]) {
      const ts = requestSnippet("typescript", request, target);
      assert.doesNotMatch(ts, /not in OpenAI's API/);
      assert.match(ts, /"tool_choice": \{/);
      assert.match(ts, /tool_calls/);
      assert.deepEqual(typeErrors(ts), [], ts);
      const py = requestSnippet("python", request, target);
      assert.match(py, /tools=\[/);
      assert.match(py, /tool_choice=\{/);
      assert.doesNotMatch(py, /extra_body/);
      assert.match(py, /tool_call\.function\.arguments/);
      execFileSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: py });
    }
  });

  it("pythonLiteral evaluates to the same value as the JSON", () => {
    const value = { a: [1, 2.5, null, true, false], b: "x\"y'\n\u00e9", c: {}, d: [] };
    const printed = execFileSync("python3", ["-c", `import json; print(json.dumps(${pythonLiteral(value)}))`], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(printed), value);
  });

  it("rejects an environment variable name that could inject code", () => {
    assert.throws(() => requestSnippet("curl", chat, { ...target, apiKeyEnv: "X; rm -rf /" }));
  });
});
