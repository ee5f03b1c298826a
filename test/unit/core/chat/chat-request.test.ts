import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chatSnippets, droppedNotice, planChatRequest, type ChatSetup } from "../../../../src/core/chat/chat-request";
import { chatModels, chosenChatModel } from "../../../../src/core/chat/chat-models";
import type { ChatTurn } from "../../../../src/core/chat/conversation";
import { errorActions } from "../../../../src/core/chat/error-actions";
import { typeErrors } from "../../../helpers/type-errors";

const setup: ChatSetup = { model: "wisp-tiny", systemPrompt: "Be brief.", temperature: 0.2, maxTokens: 256, contextTokens: 4096, contextSource: "server" };
const code = "const s = `it's ${\"$HOME\"}`;\nconsole.log('```');\n";
const turns: ChatTurn[] = [
  { id: "u1", role: "user", text: "What does this print? $(whoami) \\n", attachments: [{ id: "a", path: "src/it's.ts", language: "typescript", startLine: 1, endLine: 2, text: code, source: "selection" }], createdAt: 1 },
];

describe("chat requests and View as Code", function () {
  this.timeout(60_000);

  it("builds the streamed request with the settings, usage reporting and the conversation", () => {
    const planned = planChatRequest(setup, turns);
    assert.deepEqual(Object.keys(planned.body), ["model", "messages", "temperature", "max_tokens", "stream", "stream_options"]);
    assert.equal(planned.body.stream, true);
    assert.deepEqual(planned.body.stream_options, { include_usage: true });
    assert.equal(planned.body.messages[0]?.content, "Be brief.");
    assert.ok(planned.body.messages[1]?.content.includes(code));
    assert.equal(planned.droppedMessages, 0);
  });

  it("leaves out old turns for a small context and says so", () => {
    const long: ChatTurn[] = [];
    for (let i = 0; i < 10; i++) {
      long.push({ id: `u${i}`, role: "user", text: `question ${i} `.repeat(40), attachments: [], createdAt: i });
      long.push({ id: `a${i}`, role: "assistant", text: `answer ${i} `.repeat(40), model: "m", status: "done", createdAt: i });
    }
    long.push({ id: "last", role: "user", text: "and now?", attachments: [], createdAt: 99 });
    const planned = planChatRequest({ ...setup, contextTokens: 600, maxTokens: 100 }, long);
    assert.ok(planned.droppedMessages > 0 && planned.droppedMessages < 20);
    assert.equal(planned.body.messages.at(-1)?.content, "and now?");
    assert.equal(droppedNotice(planned.droppedMessages, { contextTokens: 600, contextSource: "server" }), `${planned.droppedMessages} earlier messages were left out to fit the model's context of 600 tokens (as the server reports it).`);
  });

  it("shows the exact request as curl, TypeScript and Python, with the base URL and the key from WISP_API_KEY", () => {
    const planned = planChatRequest(setup, turns);
    const snippets = chatSnippets(planned.body, "http://127.0.0.1:8765/v1");
    assert.deepEqual(snippets.map((s) => s.label), ["curl", "TypeScript", "Python"]);
    const [curl, typescript, python] = snippets.map((s) => s.code);
    assert.match(curl!, /^curl -N 'http:\/\/127\.0\.0\.1:8765\/v1\/chat\/completions'/);
    assert.match(curl!, /Bearer \$WISP_API_KEY/);
    // The body curl sends is the request, byte for byte (quotes, $ and backticks in the code included).
    const printBody = `curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && printf '%s' "$2"; shift; done; }\n`;
    const sent = execFileSync("bash", ["-c", printBody + curl!], { encoding: "utf8", env: { ...process.env, WISP_API_KEY: "k" } });
    assert.deepEqual(JSON.parse(sent), planned.body);
    assert.match(typescript!, /apiKey: process\.env\.WISP_API_KEY/);
    assert.deepEqual(typeErrors(typescript!), [], typescript);
    assert.match(python!, /api_key=os\.environ\["WISP_API_KEY"\]/);
    execFileSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: python! });
  });

  it("offers chat models only (image, speech and embedding models left out) and picks one", () => {
    const models = [
      { id: "wisp-tiny-diffusion", object: "model" as const, created: 0, owned_by: "wisp", kind: "image" },
      { id: "text-embedding-3-small", object: "model" as const, created: 0, owned_by: "x" },
      { id: "dall-e-3", object: "model" as const, created: 0, owned_by: "x" },
      { id: "whisper-1", object: "model" as const, created: 0, owned_by: "x" },
      { id: "qwen2.5-coder-7b", object: "model" as const, created: 0, owned_by: "x" },
      { id: "wisp-tiny", object: "model" as const, created: 0, owned_by: "wisp", kind: "text" },
    ];
    assert.deepEqual(chatModels(models).map((m) => m.id), ["qwen2.5-coder-7b", "wisp-tiny"]);
    assert.equal(chosenChatModel("", models), "qwen2.5-coder-7b");
    assert.equal(chosenChatModel("mine", models), "mine");
    assert.equal(chosenChatModel("", []), "");
  });

  it("gives every error a way out", () => {
    const labels = (kind: string, local = false) => errorActions(kind, { local }).map((a) => a.label);
    assert.deepEqual(labels("no-key"), ["Set API Key", "Retry"]);
    assert.deepEqual(labels("bad-key"), ["Set API Key", "Retry"]);
    assert.deepEqual(labels("unknown-model"), ["Select Model", "Retry"]);
    assert.deepEqual(labels("unreachable", true), ["Retry", "Start Local Server", "Open Settings"]);
    assert.deepEqual(labels("unreachable", false), ["Retry", "Open Settings"]);
    for (const kind of ["rate-limited", "timeout", "server", "malformed", "error"]) assert.ok(labels(kind).includes("Retry"), kind);
  });
});
