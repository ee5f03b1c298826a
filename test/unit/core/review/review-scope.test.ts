import assert from "node:assert/strict";
import type { Finding } from "../../../../src/core/review/findings";
import { blockOfLines, blocksOfDiff, fitListing, placeFindings, type ReviewedFile } from "../../../../src/core/review/review-scope";

const diff = [
  "diff --git a/src/cart.ts b/src/cart.ts",
  "--- a/src/cart.ts",
  "+++ b/src/cart.ts",
  "@@ -2,3 +2,4 @@ export function total(items) {",
  "   let sum = 0;",
  "-  for (const i of items) sum += i.price;",
  "+  for (const i of items) sum += i.price * i.qty;",
  "+  if (sum < 0) throw new Error('negative');",
  "   return sum;",
  "@@ -20,2 +21,2 @@",
  " a",
  "-b",
  "+c",
  "",
].join("\n");

const finding = (line: number, endLine = line, file = "src/cart.ts"): Finding => ({ file, line, endLine, severity: "warning", comment: "c" });

describe("the lines a review covers, and placing its findings", () => {
  const blocks = blocksOfDiff(diff);
  const file: ReviewedFile = { path: "src/cart.ts", blocks };

  it("each hunk's new side is a block, numbered as in the file", () => {
    assert.deepEqual(blocks.map((b) => [b.start, b.lines]), [
      [2, ["  let sum = 0;", "  for (const i of items) sum += i.price * i.qty;", "  if (sum < 0) throw new Error('negative');", "  return sum;"]],
      [21, ["a", "c"]],
    ]);
  });

  it("a CRLF file's lines come without their \\r", () => {
    assert.deepEqual(blocksOfDiff(diff.replace(/\n/g, "\r\n")).map((b) => b.lines), blocks.map((b) => b.lines));
  });

  it("shows the model numbered new lines and unnumbered removed ones", () => {
    const { text } = fitListing([file], 10_000);
    assert.equal(text.split("\n").slice(0, 6).join("\n"), [
      "File: src/cart.ts",
      "    2     let sum = 0;",
      "      -   for (const i of items) sum += i.price;",
      "    3 +   for (const i of items) sum += i.price * i.qty;",
      "    4 +   if (sum < 0) throw new Error('negative');",
      "    5     return sum;",
    ].join("\n"));
  });

  it("places findings inside a block and drops those outside or past the end", () => {
    const { placed, dropped } = placeFindings([finding(3), finding(4, 5), finding(10), finding(5, 21), finding(40), finding(3, 3, "b/src/cart.ts"), finding(2, 2, "other.ts")], [file], () => 30);
    assert.deepEqual(placed.map((p) => [p.finding.line, p.original]), [
      [3, ["  for (const i of items) sum += i.price * i.qty;"]],
      [4, ["  if (sum < 0) throw new Error('negative');", "  return sum;"]],
      [3, ["  for (const i of items) sum += i.price * i.qty;"]],
    ]);
    assert.deepEqual(dropped, { outside: 3, noSuchLine: 1 });
  });

  it("a selection is one block of its lines", () => {
    const selection: ReviewedFile = { path: "a.py", blocks: [blockOfLines(10, ["x = 1", "y = 2"])] };
    const { placed, dropped } = placeFindings([finding(11, 11, "a.py"), finding(9, 9, "a.py")], [selection], () => 20);
    assert.deepEqual(placed.map((p) => p.original), [["y = 2"]]);
    assert.deepEqual(dropped, { outside: 1, noSuchLine: 0 });
  });

  it("over the budget, a file's listing is cut and only the lines shown can take findings", () => {
    const long: ReviewedFile = { path: "big.ts", blocks: [blockOfLines(1, Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`))] };
    const { text, files } = fitListing([long], 1_000);
    assert.ok(text.length < 1_200, `${text.length}`);
    assert.ok(text.endsWith("[… the rest of big.ts left out to fit the request]"));
    const shown = files[0]!.blocks[0]!.lines.length;
    assert.ok(shown > 10 && shown < 200, `${shown}`);
    assert.equal(placeFindings([finding(shown + 1, shown + 1, "big.ts")], files, () => 200).dropped.outside, 1);
  });

  describe("secrets in what the model is shown", () => {
    const secretDiff = [
      "diff --git a/src/client.ts b/src/client.ts",
      "--- a/src/client.ts",
      "+++ b/src/client.ts",
      "@@ -1,3 +1,3 @@",
      " export function connect(token: string) {",
      '-  const apiKey = "old-key-1234";',
      '+  const apiKey = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";',
      "   return fetch(url, { headers: { authorization: token } });",
      "",
    ].join("\n");
    const code: ReviewedFile = { path: "src/client.ts", blocks: blocksOfDiff(secretDiff) };
    const pem: ReviewedFile = { path: "deploy/tls.yaml", blocks: [blockOfLines(3, ["key: |", "  -----BEGIN RSA PRIVATE KEY-----", "  MIIEowIBAAKCAQEA7VJTUt9Us8cKj", "  -----END RSA PRIVATE KEY-----", "db_password: hunter2"])] };

    it("are masked in the listing: literals in code, values in config files, key blocks whole", () => {
      const { text } = fitListing([code, pem], 10_000);
      assert.equal(text, [
        "File: src/client.ts",
        "    1   export function connect(token: string) {",
        "      -   const apiKey = [masked];",
        "    2 +   const apiKey = [masked];",
        "    3     return fetch(url, { headers: { authorization: token } });",
        "      …",
        "",
        "File: deploy/tls.yaml",
        "    3   key: |",
        "    4   [masked]",
        "    5   [masked]",
        "    6   [masked]",
        "    7   db_password: [masked]",
        "      …",
      ].join("\n"));
    });

    it("a file cut inside a key block shows what is left of it masked", () => {
      const key = ["-----BEGIN PRIVATE KEY-----", ...Array.from({ length: 60 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${i}`), "-----END PRIVATE KEY-----"];
      const { text } = fitListing([{ path: "certs/key.pem", blocks: [blockOfLines(1, key)] }], 400);
      assert.ok(text.endsWith("[… the rest of certs/key.pem left out to fit the request]"), text);
      assert.doesNotMatch(text, /MIIE/);
    });

    it("findings keep the file's own lines for Apply Fix and the masked ones the model saw", () => {
      const { files } = fitListing([code], 10_000);
      const { placed } = placeFindings([finding(2, 2, "src/client.ts")], files, () => 3);
      assert.deepEqual(placed.map((p) => [p.original, p.sent]), [[['  const apiKey = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";'], ["  const apiKey = [masked];"]]]);
    });
  });
});
