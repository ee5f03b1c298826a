import assert from "node:assert/strict";
import { Q8_0_BLOCK, quantizeQ8_0 } from "../../../../src/server/models/gguf-writer";

/** ggml's q8_0 layout read back: an f16 scale, then 32 signed bytes, per block. */
function dequantize(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks = bytes.length / (2 + Q8_0_BLOCK);
  const out = new Float32Array(blocks * Q8_0_BLOCK);
  for (let b = 0; b < blocks; b++) {
    const half = view.getUint16(b * 34, true);
    const exp = (half >> 10) & 0x1f;
    const mant = half & 0x3ff;
    const scale = (exp === 0 ? mant / 1024 * 2 ** -14 : (1 + mant / 1024) * 2 ** (exp - 15)) * (half & 0x8000 ? -1 : 1);
    for (let i = 0; i < Q8_0_BLOCK; i++) out[b * Q8_0_BLOCK + i] = view.getInt8(b * 34 + 2 + i) * scale;
  }
  return out;
}

describe("q8_0 quantization", () => {
  it("packs blocks of 32 as an f16 scale and int8 values that read back within half a step", () => {
    const values = Float32Array.from({ length: 4 * Q8_0_BLOCK }, (_, i) => Math.sin(i * 0.7) * (1 + (i >> 5)));
    const bytes = quantizeQ8_0(values);
    assert.equal(bytes.length, 4 * 34);
    const back = dequantize(bytes);
    for (let b = 0; b < 4; b++) {
      const block = values.subarray(b * 32, b * 32 + 32);
      const step = Math.max(...block.map(Math.abs)) / 127;
      // Half a step from rounding to int8, and the f16 scale's own rounding (2^-11 of up to 127 steps).
      for (let i = 0; i < 32; i++) assert.ok(Math.abs(back[b * 32 + i]! - block[i]!) <= step * (0.5 + 127 * 2 ** -11), `block ${b} value ${i}`);
    }
  });

  it("keeps the largest value of a block exact up to the scale's rounding, and zeros as zeros", () => {
    const values = new Float32Array(Q8_0_BLOCK);
    values[3] = -2.5;
    const back = dequantize(quantizeQ8_0(values));
    assert.ok(Math.abs(back[3]! + 2.5) < 2.5e-3);
    assert.equal(back.filter((v, i) => i !== 3 && v !== 0).length, 0);
    assert.deepEqual([...dequantize(quantizeQ8_0(new Float32Array(Q8_0_BLOCK)))], new Array(Q8_0_BLOCK).fill(0));
  });

  it("refuses a length that is not whole blocks", () => {
    assert.throws(() => quantizeQ8_0(new Float32Array(33)), /multiple of 32/);
  });
});
