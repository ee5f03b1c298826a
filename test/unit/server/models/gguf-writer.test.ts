import assert from "node:assert/strict";
import { float16ToNumber } from "../../../../src/core/base/float16";
import { dequantizeQ8_0, ggufHeader, Q8_0_BLOCK, quantizeQ4_0, quantizeQ8_0, tensorBytes, TensorType } from "../../../../src/server/models/gguf-writer";

/** ggml's q4_0 layout read back: an f16 scale, then 16 bytes of nibbles (value i low, value 16 + i high), minus 8. */
function dequantizeQ4_0(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array((bytes.length / 18) * Q8_0_BLOCK);
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

describe("q8_0 quantization", () => {
  it("packs blocks of 32 as an f16 scale and int8 values that read back within half a step", () => {
    const values = Float32Array.from({ length: 4 * Q8_0_BLOCK }, (_, i) => Math.sin(i * 0.7) * (1 + (i >> 5)));
    const bytes = quantizeQ8_0(values);
    assert.equal(bytes.length, 4 * 34);
    const back = dequantizeQ8_0(bytes);
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
    const back = dequantizeQ8_0(quantizeQ8_0(values));
    assert.ok(Math.abs(back[3]! + 2.5) < 2.5e-3);
    assert.equal(back.filter((v, i) => i !== 3 && v !== 0).length, 0);
    assert.deepEqual([...dequantizeQ8_0(quantizeQ8_0(new Float32Array(Q8_0_BLOCK)))], new Array(Q8_0_BLOCK).fill(0));
  });

  it("refuses a length that is not whole blocks", () => {
    assert.throws(() => quantizeQ8_0(new Float32Array(33)), /multiple of 32/);
  });
});

describe("q4_0 quantization", () => {
  it("packs blocks of 32 as an f16 scale and 4-bit values that read back within a step, the largest exactly", () => {
    const values = Float32Array.from({ length: 4 * Q8_0_BLOCK }, (_, i) => Math.cos(i * 0.9) * (1 + (i >> 5)));
    const bytes = quantizeQ4_0(values);
    assert.equal(bytes.length, 4 * 18);
    const back = dequantizeQ4_0(bytes);
    for (let b = 0; b < 4; b++) {
      const block = values.subarray(b * 32, b * 32 + 32);
      const largest = block.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
      const step = Math.abs(largest) / 8;
      // Half a step from rounding, but the largest's opposite (+8 steps) is clamped to +7: a whole one there.
      for (let i = 0; i < 32; i++) {
        const clamped = Math.sign(block[i]!) !== Math.sign(largest) && Math.abs(block[i]!) > 7.5 * step;
        assert.ok(Math.abs(back[b * 32 + i]! - block[i]!) <= step * ((clamped ? 1 : 0.5) + 8 * 2 ** -11), `block ${b} value ${i}`);
      }
      const at = block.indexOf(largest);
      assert.ok(Math.abs(back[b * 32 + at]! - largest) <= Math.abs(largest) * 2 ** -11, `block ${b}: its largest value`);
    }
  });

  it("writes a header whose tensor offsets follow each type's size, and data padded to them", () => {
    const tensors = [
      { name: "tensor_a", dims: [64, 2], type: TensorType.Q4_0, data: new Float32Array(128).fill(1) },
      { name: "tensor_b", dims: [3], type: TensorType.F32, data: new Float32Array(3) },
      { name: "tensor_c", dims: [32], type: TensorType.Q8_0, data: new Float32Array(32) },
    ];
    const header = Buffer.concat(ggufHeader(new Map(), tensors));
    assert.equal(header.length % 32, 0);
    const offsetOf = (name: string) => Number(header.readBigUInt64LE(header.indexOf(Buffer.from(name)) + name.length + 4 + 8 * tensors.find((t) => t.name === name)!.dims.length + 4));
    assert.deepEqual(["tensor_a", "tensor_b", "tensor_c"].map(offsetOf), [0, 96, 128]);
    assert.deepEqual(tensors.map((t) => tensorBytes(t).length), [96, 32, 64]);
  });
});
