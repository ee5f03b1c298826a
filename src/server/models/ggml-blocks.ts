// ggml's block formats the project writes and reads back: blocks of 32 values with one f16 scale,
// the values as int8 (q8_0), 5 bits (q5_0) or 4 bits (q4_0), quantized the way ggml's reference
// code does (quantize_row_*_ref), so a file made here is what llama.cpp's own tools would make.
import { float16ToNumber, toFloat16Bits } from "../../core/base/float16";

/** Values per block, in every format here. */
export const BLOCK = 32;
const HALF = BLOCK / 2;

export interface BlockFormat {
  /** Bytes per block of 32 values. */
  bytes: number;
  quantize(data: Float32Array): Uint8Array;
  dequantize(bytes: Uint8Array): Float32Array;
}

const half = (value: number): number => toFloat16Bits([value])[0]!;

/** Runs `write(block start, byte offset, view)` per block after checking the length. */
function blocks(name: string, data: Float32Array, bytes: number, write: (b: number, at: number, view: DataView) => void): Uint8Array {
  if (data.length % BLOCK !== 0) throw new Error(`${name} needs a multiple of ${BLOCK} values, got ${data.length}`);
  const out = new Uint8Array((data.length / BLOCK) * bytes);
  const view = new DataView(out.buffer);
  for (let b = 0, at = 0; b < data.length; b += BLOCK, at += bytes) write(b, at, view);
  return out;
}

/** The block's value of largest magnitude, with its sign (q4_0 and q5_0 scale by it). */
function signedMax(data: Float32Array, b: number): number {
  let max = 0;
  for (let i = 0; i < BLOCK; i++) if (Math.abs(data[b + i]!) > Math.abs(max)) max = data[b + i]!;
  return max;
}

/** Reads blocks of `bytes`: `value(view, at, i, scale)` is the block's i-th value. */
function readBlocks(bytes: Uint8Array, size: number, value: (view: DataView, at: number, i: number, scale: number) => number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array((bytes.length / size) * BLOCK);
  for (let b = 0, at = 0; b < out.length; b += BLOCK, at += size) {
    const scale = float16ToNumber(view.getUint16(at, true));
    for (let i = 0; i < BLOCK; i++) out[b + i] = value(view, at, i, scale);
  }
  return out;
}

/** q8_0: scale = max|x| / 127, values rounded half away from zero. */
export const q8_0: BlockFormat = {
  bytes: 2 + BLOCK,
  quantize: (data) =>
    blocks("q8_0", data, 2 + BLOCK, (b, at, view) => {
      let amax = 0;
      for (let i = 0; i < BLOCK; i++) amax = Math.max(amax, Math.abs(data[b + i]!));
      const d = amax / 127;
      const id = d === 0 ? 0 : 1 / d;
      view.setUint16(at, half(d), true);
      for (let i = 0; i < BLOCK; i++) view.setInt8(at + 2 + i, Math.round(Math.abs(data[b + i]! * id)) * Math.sign(data[b + i]!));
    }),
  dequantize: (bytes) => readBlocks(bytes, 2 + BLOCK, (view, at, i, scale) => scale * view.getInt8(at + 2 + i)),
};

/**
 * q4_0: the value of largest magnitude maps to -8, scale = it / -8, each value stored as
 * round(x / scale) + 8 in a nibble (the block's first 16 in the low nibbles).
 */
export const q4_0: BlockFormat = {
  bytes: 2 + HALF,
  quantize: (data) =>
    blocks("q4_0", data, 2 + HALF, (b, at, view) => {
      const d = signedMax(data, b) / -8;
      const id = d === 0 ? 0 : 1 / d;
      view.setUint16(at, half(d), true);
      const nibble = (v: number) => Math.min(15, Math.floor(v * id + 8.5));
      for (let i = 0; i < HALF; i++) view.setUint8(at + 2 + i, nibble(data[b + i]!) | (nibble(data[b + HALF + i]!) << 4));
    }),
  dequantize: (bytes) => readBlocks(bytes, 2 + HALF, (view, at, i, scale) => scale * (((view.getUint8(at + 2 + (i % HALF)) >> (i < HALF ? 0 : 4)) & 0xf) - 8)),
};

/**
 * q5_0: as q4_0 with 32 steps (the largest maps to -16): the low 4 bits in nibbles, the fifth bit
 * of value i in bit i of a 32-bit word before them.
 */
export const q5_0: BlockFormat = {
  bytes: 2 + 4 + HALF,
  quantize: (data) =>
    blocks("q5_0", data, 2 + 4 + HALF, (b, at, view) => {
      const d = signedMax(data, b) / -16;
      const id = d === 0 ? 0 : 1 / d;
      view.setUint16(at, half(d), true);
      const five = (v: number) => Math.min(31, Math.floor(v * id + 16.5));
      let high = 0;
      for (let i = 0; i < HALF; i++) {
        const [lo, hi] = [five(data[b + i]!), five(data[b + HALF + i]!)];
        view.setUint8(at + 6 + i, (lo & 0xf) | ((hi & 0xf) << 4));
        high |= ((lo >> 4) << i) | ((hi >> 4) << (i + HALF));
      }
      view.setUint32(at + 2, high >>> 0, true);
    }),
  dequantize: (bytes) =>
    readBlocks(bytes, 2 + 4 + HALF, (view, at, i, scale) => {
      const low = (view.getUint8(at + 6 + (i % HALF)) >> (i < HALF ? 0 : 4)) & 0xf;
      const fifth = (view.getUint32(at + 2, true) >>> i) & 1;
      return scale * ((low | (fifth << 4)) - 16);
    }),
};
