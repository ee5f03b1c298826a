import assert from "node:assert/strict";
import { SSE_DONE, SseParser, encodeSseEvent, type SseEvent } from "../../../../src/core/api/sse";

const encoder = new TextEncoder();

function parseWhole(text: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.feed(encoder.encode(text)), ...parser.end()];
}

function parseInPieces(bytes: Uint8Array, cuts: number[]): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...parser.feed(bytes.subarray(start, cut)));
    start = cut;
  }
  return [...events, ...parser.end()];
}

describe("SseParser", () => {
  // Every feature at once: comments, CRLF, lone CR, LF, multi-line data, event names, ids,
  // multi-byte characters of 2, 3 and 4 bytes, [DONE].
  const stream =
    ": ping\r\n\r\n" +
    'data: {"t":"é"}\r\n\r\n' +
    "event: note\rdata: line one\rdata: line two → 中\r\r" +
    "id: 7\ndata:no-space 😀\n\n" +
    "retry: 1000\ndata\n\n" +
    `data: ${SSE_DONE}\n\n`;
  const expected: SseEvent[] = [
    { event: "message", data: '{"t":"é"}' },
    { event: "note", data: "line one\nline two → 中" },
    { event: "message", data: "no-space 😀", id: "7" },
    { event: "message", data: "", id: "7" },
    { event: "message", data: SSE_DONE, id: "7" },
  ];

  it("parses comments, CRLF, CR and LF endings, multi-line data, names and ids", () => {
    assert.deepEqual(parseWhole(stream), expected);
  });

  it("gives the same events however the bytes are split: one byte at a time", () => {
    const bytes = encoder.encode(stream);
    assert.deepEqual(parseInPieces(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)), expected);
  });

  it("gives the same events for every single split point (inside characters, between CR and LF)", () => {
    const bytes = encoder.encode(stream);
    for (let cut = 0; cut <= bytes.length; cut++) {
      assert.deepEqual(parseInPieces(bytes, [cut]), expected, `split at byte ${cut}`);
    }
  });

  it("does not take the LF of a CRLF split across chunks for an empty line", () => {
    const parser = new SseParser();
    assert.deepEqual(parser.feed("data: a\r"), []);
    assert.deepEqual(parser.feed("\ndata: b\r"), []);
    assert.deepEqual(parser.feed("\n\r\n"), [{ event: "message", data: "a\nb" }]);
  });

  it("ignores comment-only and field-less blocks, and unknown fields", () => {
    assert.deepEqual(parseWhole(":one\n:two\n\nfoo: bar\n\nevent: x\n\n"), []);
  });

  it("delivers llama.cpp's error: line as the data of an event of type error", () => {
    assert.deepEqual(parseWhole('data: {"a":1}\n\nerror: {"message":"boom"}\n\ndata: [DONE]\n\n'), [
      { event: "message", data: '{"a":1}' },
      { event: "error", data: '{"message":"boom"}' },
      { event: "message", data: SSE_DONE },
    ]);
  });

  it("delivers a last event that lacks its blank line, or even its newline, at the end", () => {
    assert.deepEqual(parseWhole("data: [DONE]\n"), [{ event: "message", data: SSE_DONE }]);
    assert.deepEqual(parseWhole("data: [DONE]"), [{ event: "message", data: SSE_DONE }]);
  });

  it("replaces invalid UTF-8 rather than throwing", () => {
    const parser = new SseParser();
    const events = [...parser.feed(Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a)), ...parser.end()];
    assert.deepEqual(events, [{ event: "message", data: "\ufffd" }]);
  });

  it("round-trips what encodeSseEvent writes, multi-line data included", () => {
    const payloads = ['{"a":1}', "two\nlines", "cr\r\nlf"];
    const text = payloads.map(encodeSseEvent).join("");
    assert.deepEqual(
      parseWhole(text).map((e) => e.data),
      ['{"a":1}', "two\nlines", "cr\nlf"],
    );
  });
});
