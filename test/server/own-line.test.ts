import assert from "node:assert/strict";
import { metricsOf, startServer, withShippedCoder, type TestServer } from "./server-fixture";

// Where the file offers lines to copy, the shipped model's own line competes with them by the same
// likelihood (generate-choices.ts, ownLine): `user.` before `;` offers `firstName` and `lastName`
// (the lines above), and the model's own `email` is the likelier line. --no-own-line answers with
// the likeliest copy alone.
const MODEL = "wisp-coder";
const PREFIX = "const first = user.firstName;\nconst last = user.lastName;\nconst email = user.";
const ONE_LINE = { model: MODEL, temperature: 0, max_tokens: 48, stop: ["\n"], prompt: PREFIX, suffix: ";\n" };

describe("POST /v1/completions: the model's own line against the file's", function () {
  this.timeout(120_000);
  let server: TestServer;
  let copiesOnly: TestServer;
  before(async () => {
    server = await startServer({ prepare: withShippedCoder });
    copiesOnly = await startServer({ prepare: withShippedCoder, ownLine: false });
  });
  after(async () => {
    await server.close();
    await copiesOnly.close();
  });

  const complete = async (on: TestServer) => {
    const response = await on.fetch("/v1/completions", { json: ONE_LINE });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { choices: { text: string; finish_reason: string }[] }).choices[0]!;
  };

  it("answers with the model's own line where it is likelier than every copy, and does not count it as copied", async () => {
    const before = (await metricsOf(server)).linesCopied;
    const answer = await complete(server);
    assert.match(answer.text, /^email\b/);
    assert.equal(answer.finish_reason, "stop");
    assert.equal((await metricsOf(server)).linesCopied, before, "the model's own line is no copy");
  });

  it("with --no-own-line, the likeliest of the file's lines", async () => {
    const before = (await metricsOf(copiesOnly)).linesCopied;
    const answer = await complete(copiesOnly);
    assert.ok(["firstName", "lastName"].includes(answer.text), `a copy: ${JSON.stringify(answer.text)}`);
    assert.equal((await metricsOf(copiesOnly)).linesCopied, before + 1);
  });
});
