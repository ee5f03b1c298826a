import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CompletionPipeline } from "../../../src/core/completion/pipeline";
import { isSubsequence } from "../../../src/core/completion/placement";
import { selectTemplate } from "../../../src/core/completion/templates";
import { FakeServer } from "./fake-server";
import { inputAt } from "./input-at";

interface FixtureCase {
  readonly name: string;
  readonly doc: string;
  /** What the model streams: one string, or its deltas. */
  readonly output: string | string[];
  /** The ghost text a user should see ("" for none). */
  readonly expected: string;
  /** How many characters after the cursor it replaces (closers the editor auto-inserted); default 0. */
  readonly replace?: number;
  /** The document after accepting it (Tab). */
  readonly accepted?: string;
  readonly languageId?: string;
  readonly model?: string;
  readonly template?: string;
  readonly maxLines?: number;
  readonly indent?: { insertSpaces: boolean; tabSize: number };
}

const cases = JSON.parse(
  readFileSync(new URL("../../fixtures/completion/cases.json", import.meta.url), "utf8"),
) as FixtureCase[];

describe("completion fixtures: model output -> ghost text", () => {
  it("has at least 40 cases", () => assert.ok(cases.length >= 40, `${cases.length} cases`));

  for (const c of cases) {
    it(c.name, async () => {
      const server = new FakeServer(() => ({ chunks: typeof c.output === "string" ? [c.output] : c.output }));
      const settings = { model: c.model ?? "wisp-tiny", template: c.template ?? "auto", maxTokens: 64, debounceMs: 0, ...(c.maxLines ? { maxLines: c.maxLines } : {}) };
      const pipeline = new CompletionPipeline({ stream: server.stream, settings: () => settings });
      const input = inputAt(c.doc, { manual: true, ...(c.indent ? { indent: c.indent } : {}), ...(c.languageId ? { languageId: c.languageId } : {}) });

      const outcome = await pipeline.complete(input, new AbortController().signal);

      const shown = outcome.kind === "shown" ? outcome : { text: "", replace: 0 };
      assert.equal(shown.text, c.expected, `outcome ${JSON.stringify(outcome)}`);
      assert.equal(shown.replace, c.replace ?? 0, "characters replaced after the cursor");
      if (c.expected === "") assert.equal(outcome.kind, "empty");
      // What Tab leaves in the document; the editor draws replaced characters inside the ghost text.
      const lineSuffix = input.suffix.split("\n")[0] as string;
      assert.ok(shown.replace <= lineSuffix.length, "replaces only text on the cursor line");
      assert.ok(isSubsequence(lineSuffix.slice(0, shown.replace), shown.text), "replaced characters appear in the ghost text");
      if (c.accepted !== undefined) assert.equal(input.prefix + shown.text + input.suffix.slice(shown.replace), c.accepted);
      // The server is asked to stop on the family's likeliest tokens, within OpenAI's limit of 4.
      const template = selectTemplate(settings.template, settings.model);
      const sent = server.requests[0]?.stop ?? [];
      assert.equal(server.requests.length, 1);
      assert.ok(sent.length <= 4);
      assert.deepEqual(sent.filter((s) => s !== "\n"), template.stop.slice(0, sent.length - (sent.includes("\n") ? 1 : 0)));
    });
  }
});
