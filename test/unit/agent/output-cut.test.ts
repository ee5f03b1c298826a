import assert from "node:assert/strict";
import { cutNote, cutOutput, OutputBuffer } from "../../../src/core/agent/output-cut";
import { wellFormed } from "../../harness/well-formed";

const numbered = (count: number, width = 20) => Array.from({ length: count }, (_, i) => `line ${String(i + 1).padStart(5, "0")} `.padEnd(width, "x")).join("\n") + "\n";

describe("core/agent: output cutting", () => {
  it("leaves output within the limit unchanged", () => {
    assert.equal(cutOutput("short\noutput\n", 100), "short\noutput\n");
    assert.equal(cutOutput("", 10), "");
  });

  it("keeps the head and the longer tail on line boundaries, with a note saying how much was cut", () => {
    const text = numbered(2500); // 52,500 characters
    const cut = cutOutput(text, 1000);
    const note = /\n… \[([\d,]+) characters cut: the output was 52,500 characters\] …\n/.exec(cut);
    assert.ok(note, cut);
    const [head, tail] = cut.split(note[0]);
    assert.ok(text.startsWith(head!) && head!.endsWith("\n"), "the head is whole lines from the start");
    assert.ok(text.endsWith(tail!) && tail!.startsWith("line "), "the tail is whole lines to the end");
    assert.ok(head!.length <= 400 && head!.length > 300, `head ${head!.length}`);
    assert.ok(tail!.length <= 600 && tail!.length > 500, `tail ${tail!.length}`);
    assert.equal(Number(note[1]!.replace(/,/g, "")), text.length - head!.length - tail!.length);
    assert.ok(cut.length <= 1000 + note[0].length);
    assert.ok(tail!.includes("line 02500"), "the last line (where failures are) is kept");
  });

  it("cuts inside a line when a line break would lose most of the budget", () => {
    const text = "x".repeat(10_000);
    const cut = cutOutput(text, 100);
    assert.equal(cut, "x".repeat(40) + cutNote(9_900, 10_000) + "x".repeat(60));
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(1000);
    const cut = cutOutput(text, 101);
    assert.ok(wellFormed(cut), "no lone surrogate");
  });

  it("streams to the same text as cutting the whole output, holding bounded memory", () => {
    const text = numbered(5000);
    for (const capacity of [500, 5_000, 200_000]) {
      const buffer = new OutputBuffer(capacity);
      for (let i = 0; i < text.length; i += 777) buffer.append(text.slice(i, i + 777));
      assert.equal(buffer.length, text.length);
      for (const max of [100, 500, capacity]) assert.equal(buffer.text(max), cutOutput(text, max), `capacity ${capacity}, max ${max}`);
    }
  });

  it("keeps at most its capacity of head and twice of tail however much is appended", () => {
    const buffer = new OutputBuffer(1000);
    const chunk = "y".repeat(4096);
    for (let i = 0; i < 10_000; i++) buffer.append(chunk); // 40 MB through the buffer
    const kept = buffer as unknown as { head: string; tail: string }; // its private state: memory is the point
    const held = kept.head.length + kept.tail.length;
    assert.ok(held <= 3000, `holds ${held}`);
    assert.match(buffer.text(1000), /40,960,000 characters\] …/);
  });
});
