import assert from "node:assert/strict";
import { WispClient } from "../../src/client/wisp-client";
import { parseFindings } from "../../src/core/review/findings";
import { reviewMessages } from "../../src/core/review/review-prompt";
import { FindingsRequester } from "../../src/extension/review/review-request";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

describe("a review's findings asked of wisp-server (real engine, tiny model, Wisp's client)", function () {
  this.timeout(180_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("takes the findings schema in response_format and answers in its shape", async () => {
    const client = new WispClient({ baseUrl: server.baseURL, apiKey: server.key });
    const listing = "File: src/cart.js\n    1   exports.total = (items) =>\n    2 +   items.reduce((sum, item) => sum + item.price, 0);";
    const answer = await new FindingsRequester().ask(
      client,
      server.baseURL,
      { model: TEXT_MODEL, temperature: 0, maxTokens: 400, messages: (asTool) => reviewMessages({ what: "src/cart.js", listing, asTool }) },
      new AbortController().signal,
    );
    assert.equal(answer.via, "response_format", "the local server takes the schema");
    const { findings, malformed } = parseFindings(answer.json);
    assert.equal(malformed, 0, "every item fits the schema: the grammar made it");
    for (const finding of findings) assert.ok(["error", "warning", "info"].includes(finding.severity));
  });
});
