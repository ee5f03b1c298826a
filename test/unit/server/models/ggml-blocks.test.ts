import assert from "node:assert/strict";
import { float16ToNumber } from "../../../../src/core/base/float16";
import { BLOCK, q4_0, q5_0, q8_0, type BlockFormat } from "../../../../src/server/models/ggml-blocks";

// The layouts read back here independently of ggml-blocks.ts, the way ggml's dequantize_row_* does.

/** q4_0: an f16 scale, then 16 bytes of nibbles (value i low, value 16 + i high), minus 8. */
function readQ4_0(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array((bytes.length / 18) * BLOCK);
  for (let b = 0; b < bytes.length / 18; b++) {
    const scale = float16ToNumber(view.getUint16(b * 18, true));
    for (let i = 0; i < 16; i++) {
      const byte = bytes[b * 18 + 2 + i]!;
      out[b * 32 + i] = ((byte & 15) - 8) * scale;
      out[b * 32 + 16 + i] = ((byte >> 4) - 8) * scale;
    }
  }
  return out;
}

/** q5_0: an f16 scale, a little-endian u32 of fifth bits (bit i for value i), 16 bytes of nibbles as q4_0's, minus 16. */
function readQ5_0(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array((bytes.length / 22) * BLOCK);
  for (let b = 0; b < bytes.length / 22; b++) {
    const scale = float16ToNumber(view.getUint16(b * 22, true));
    const high = view.getUint32(b * 22 + 2, true);
    for (let i = 0; i < 16; i++) {
      const byte = bytes[b * 22 + 6 + i]!;
      out[b * 32 + i] = ((byte & 15) + (((high >>> i) & 1) << 4) - 16) * scale;
      out[b * 32 + 16 + i] = ((byte >> 4) + (((high >>> (i + 16)) & 1) << 4) - 16) * scale;
    }
  }
  return out;
}

const wave = (f: (x: number) => number) => Float32Array.from({ length: 4 * BLOCK }, (_, i) => f(i * 0.9) * (1 + (i >> 5)));

/**
 * Every value within `steps` of a step (the largest magnitude over `levels`) of where it was; the
 * largest's opposite end is one step short (-levels..levels-1), so a value there may be a whole step off.
 */
function assertWithinSteps(format: BlockFormat, read: (b: Uint8Array) => Float32Array, levels: number): void {
  const values = wave(Math.cos);
  const bytes = format.quantize(values);
  assert.equal(bytes.length, 4 * format.bytes);
  const back = read(bytes);
  assert.deepEqual([...format.dequantize(bytes)], [...back], "dequantize reads what ggml reads");
  for (let b = 0; b < 4; b++) {
    const block = values.subarray(b * 32, b * 32 + 32);
    const largest = block.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
    const step = Math.abs(largest) / levels;
    for (let i = 0; i < 32; i++) {
      const clamped = Math.sign(block[i]!) !== Math.sign(largest) && Math.abs(block[i]!) > (levels - 0.5) * step;
      assert.ok(Math.abs(back[b * 32 + i]! - block[i]!) <= step * ((clamped ? 1 : 0.5) + levels * 2 ** -11), `block ${b} value ${i}`);
    }
    const at = block.indexOf(largest);
    assert.ok(Math.abs(back[b * 32 + at]! - largest) <= Math.abs(largest) * 2 ** -11, `block ${b}: its largest value`);
  }
}

describe("ggml block formats", () => {
  it("q8_0: an f16 scale and int8 values that read back within half a step", () => {
    const values = wave(Math.sin);
    const bytes = q8_0.quantize(values);
    assert.equal(bytes.length, 4 * 34);
    const back = q8_0.dequantize(bytes);
    for (let b = 0; b < 4; b++) {
      const block = values.subarray(b * 32, b * 32 + 32);
      const step = Math.max(...block.map(Math.abs)) / 127;
      // Half a step from rounding to int8, and the f16 scale's own rounding (2^-11 of up to 127 steps).
      for (let i = 0; i < 32; i++) assert.ok(Math.abs(back[b * 32 + i]! - block[i]!) <= step * (0.5 + 127 * 2 ** -11), `block ${b} value ${i}`);
    }
  });

  it("q8_0 keeps the largest value of a block exact up to the scale's rounding, and zeros as zeros", () => {
    const values = new Float32Array(BLOCK);
    values[3] = -2.5;
    const back = q8_0.dequantize(q8_0.quantize(values));
    assert.ok(Math.abs(back[3]! + 2.5) < 2.5e-3);
    assert.equal(back.filter((v, i) => i !== 3 && v !== 0).length, 0);
    assert.deepEqual([...q8_0.dequantize(q8_0.quantize(new Float32Array(BLOCK)))], new Array(BLOCK).fill(0));
  });

  it("q4_0: 4-bit values read back as ggml reads them, within half a step, the largest exactly", () => {
    assertWithinSteps(q4_0, readQ4_0, 8);
  });

  it("q5_0: 5-bit values read back as ggml reads them, within half a step, the largest exactly", () => {
    assertWithinSteps(q5_0, readQ5_0, 16);
  });

  it("q5_0 puts each value's fifth bit at its own position: one block worked by hand", () => {
    // Largest -16 -> scale 1: value v is stored as v + 16 (0..31); the block's second half is +15.
    const values = Float32Array.from({ length: BLOCK }, (_, i) => (i === 0 ? -16 : i < 16 ? i - 16 : 15));
    const bytes = q5_0.quantize(values);
    assert.equal(float16ToNumber(new DataView(bytes.buffer).getUint16(0, true)), 1);
    // Stored 0..15 in the first half (no fifth bit), 31 in the second (all fifth bits): bits 16-31.
    assert.equal(new DataView(bytes.buffer).getUint32(2, true), 0xffff0000);
    assert.deepEqual([...bytes.subarray(6)], Array.from({ length: 16 }, (_, i) => i | (15 << 4)));
    assert.deepEqual([...readQ5_0(bytes)], [...values]);
  });

  it("refuses a length that is not whole blocks, naming the format", () => {
    for (const [name, format] of [["q8_0", q8_0], ["q5_0", q5_0], ["q4_0", q4_0]] as const) {
      assert.throws(() => format.quantize(new Float32Array(33)), new RegExp(`${name} needs a multiple of 32`));
    }
  });
});
