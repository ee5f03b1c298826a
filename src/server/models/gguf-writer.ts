// A minimal GGUF v3 writer: header, metadata key/values, tensor infos, aligned tensor data.
// Only what the generated and trained models need (scalars, strings, arrays of those; f32, f16,
// q8_0 and q4_0 tensors). Large files are written a tensor at a time (ggufHeader, tensorBytes).
import { float16ToNumber } from "../../core/base/float16";

export const GGUF_ALIGNMENT = 32;

enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "i32[]"; value: readonly number[] }
  | { type: "f32[]"; value: readonly number[] };

export enum TensorType {
  F32 = 0,
  F16 = 1,
  /** Blocks of 32 4-bit values with one f16 scale each (ggml's q4_0): rows must be multiples of 32. */
  Q4_0 = 2,
  /** Blocks of 32 int8 values with one f16 scale each (ggml's q8_0): rows must be multiples of 32. */
  Q8_0 = 8,
}

/** Values per q8_0 block, and the block's bytes (an f16 scale, then 32 int8 values). */
export const Q8_0_BLOCK = 32;
const Q8_0_BLOCK_BYTES = 2 + Q8_0_BLOCK;
const Q4_0_BLOCK_BYTES = 2 + Q8_0_BLOCK / 2;

export interface GgufTensorInfo {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length). */
  dims: readonly number[];
  type: TensorType;
}

export interface GgufTensor extends GgufTensorInfo {
  /** Values in row-major ggml order, converted to `type` on write. */
  data: Float32Array;
}

/** Appends little-endian primitives to growing chunks without knowing the final size up front. */
class ByteSink {
  readonly chunks: Uint8Array[] = [];
  length = 0;
  private readonly encoder = new TextEncoder();

  bytes(b: Uint8Array): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  private scalar(size: number, write: (view: DataView) => void): void {
    const b = new Uint8Array(size);
    write(new DataView(b.buffer));
    this.bytes(b);
  }
  u32(v: number): void {
    this.scalar(4, (d) => d.setUint32(0, v, true));
  }
  i32(v: number): void {
    this.scalar(4, (d) => d.setInt32(0, v, true));
  }
  u64(v: number): void {
    this.scalar(8, (d) => d.setBigUint64(0, BigInt(v), true));
  }
  f32(v: number): void {
    this.scalar(4, (d) => d.setFloat32(0, v, true));
  }
  string(s: string): void {
    const b = this.encoder.encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.bytes(new Uint8Array(pad));
  }
}

function writeValue(sink: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case "u32":
      sink.u32(ValueType.UINT32);
      return sink.u32(v.value);
    case "i32":
      sink.u32(ValueType.INT32);
      return sink.i32(v.value);
    case "f32":
      sink.u32(ValueType.FLOAT32);
      return sink.f32(v.value);
    case "bool":
      sink.u32(ValueType.BOOL);
      return sink.bytes(Uint8Array.of(v.value ? 1 : 0));
    case "string":
      sink.u32(ValueType.STRING);
      return sink.string(v.value);
    case "string[]":
      sink.u32(ValueType.ARRAY);
      sink.u32(ValueType.STRING);
      sink.u64(v.value.length);
      return v.value.forEach((s) => sink.string(s));
    case "i32[]":
      sink.u32(ValueType.ARRAY);
      sink.u32(ValueType.INT32);
      sink.u64(v.value.length);
      return v.value.forEach((n) => sink.i32(n));
    case "f32[]":
      sink.u32(ValueType.ARRAY);
      sink.u32(ValueType.FLOAT32);
      sink.u64(v.value.length);
      return v.value.forEach((n) => sink.f32(n));
  }
}

/** IEEE 754 half precision, round-to-nearest-even, for f16 tensors. */
export function toHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = ((bits >>> 23) & 0xff) - 127 + 15;
  const mant = bits & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const m = (mant | 0x800000) >> (1 - exp);
    return sign | ((m + 0x1000 + ((m >> 13) & 1) - 1) >> 13);
  }
  if (exp >= 31) return sign | 0x7c00;
  const rounded = mant + 0xfff + ((mant >> 13) & 1);
  if (rounded & 0x800000) return exp + 1 >= 31 ? sign | 0x7c00 : sign | ((exp + 1) << 10);
  return sign | (exp << 10) | (rounded >> 13);
}

/** ggml's reference q8_0 quantization: scale = max|x| / 127, values rounded half away from zero. */
export function quantizeQ8_0(data: Float32Array): Uint8Array {
  if (data.length % Q8_0_BLOCK !== 0) throw new Error(`q8_0 needs a multiple of ${Q8_0_BLOCK} values, got ${data.length}`);
  const out = new Uint8Array((data.length / Q8_0_BLOCK) * Q8_0_BLOCK_BYTES);
  const view = new DataView(out.buffer);
  for (let b = 0, at = 0; b < data.length; b += Q8_0_BLOCK, at += Q8_0_BLOCK_BYTES) {
    let amax = 0;
    for (let i = 0; i < Q8_0_BLOCK; i++) amax = Math.max(amax, Math.abs(data[b + i]!));
    const d = amax / 127;
    const id = d === 0 ? 0 : 1 / d;
    view.setUint16(at, toHalf(d), true);
    for (let i = 0; i < Q8_0_BLOCK; i++) view.setInt8(at + 2 + i, Math.round(Math.abs(data[b + i]! * id)) * Math.sign(data[b + i]!));
  }
  return out;
}

/** quantizeQ8_0's layout read back: per block, the f16 scale times each of its 32 int8 values. */
export function dequantizeQ8_0(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array((bytes.length / Q8_0_BLOCK_BYTES) * Q8_0_BLOCK);
  for (let b = 0, at = 0; b < out.length; b += Q8_0_BLOCK, at += Q8_0_BLOCK_BYTES) {
    const scale = float16ToNumber(view.getUint16(at, true));
    for (let i = 0; i < Q8_0_BLOCK; i++) out[b + i] = scale * view.getInt8(at + 2 + i);
  }
  return out;
}

/**
 * ggml's reference q4_0 quantization: the value of largest magnitude maps to -8, scale = it / -8,
 * each value stored as round(x / scale) + 8 in a nibble (the block's first 16 in the low nibbles).
 */
export function quantizeQ4_0(data: Float32Array): Uint8Array {
  if (data.length % Q8_0_BLOCK !== 0) throw new Error(`q4_0 needs a multiple of ${Q8_0_BLOCK} values, got ${data.length}`);
  const half = Q8_0_BLOCK / 2;
  const out = new Uint8Array((data.length / Q8_0_BLOCK) * Q4_0_BLOCK_BYTES);
  const view = new DataView(out.buffer);
  for (let b = 0, at = 0; b < data.length; b += Q8_0_BLOCK, at += Q4_0_BLOCK_BYTES) {
    let amax = 0;
    let max = 0;
    for (let i = 0; i < Q8_0_BLOCK; i++) {
      const v = data[b + i]!;
      if (Math.abs(v) > amax) [amax, max] = [Math.abs(v), v];
    }
    const d = max / -8;
    const id = d === 0 ? 0 : 1 / d;
    view.setUint16(at, toHalf(d), true);
    const nibble = (v: number) => Math.min(15, Math.floor(v * id + 8.5));
    for (let i = 0; i < half; i++) out[at + 2 + i] = nibble(data[b + i]!) | (nibble(data[b + half + i]!) << 4);
  }
  return out;
}

/** The bytes a tensor's data takes in the file (before alignment). */
export function tensorByteLength(t: GgufTensorInfo): number {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (t.type === TensorType.Q8_0 || t.type === TensorType.Q4_0) {
    if (t.dims[0]! % Q8_0_BLOCK !== 0) throw new Error(`${t.name}: quantized rows must be multiples of ${Q8_0_BLOCK}`);
    return (count / Q8_0_BLOCK) * (t.type === TensorType.Q8_0 ? Q8_0_BLOCK_BYTES : Q4_0_BLOCK_BYTES);
  }
  return count * (t.type === TensorType.F32 ? 4 : 2);
}

/** A tensor's data in its file type, padded to the alignment: write these after ggufHeader, in order. */
export function tensorBytes(t: GgufTensor): Uint8Array {
  tensorByteLength(t); // checks the row length
  const sink = new ByteSink();
  if (t.type === TensorType.F32) sink.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  else if (t.type === TensorType.Q8_0) sink.bytes(quantizeQ8_0(t.data));
  else if (t.type === TensorType.Q4_0) sink.bytes(quantizeQ4_0(t.data));
  else {
    const half = new Uint16Array(t.data.length);
    for (let i = 0; i < t.data.length; i++) half[i] = toHalf(t.data[i]!);
    sink.bytes(new Uint8Array(half.buffer));
  }
  sink.padTo(GGUF_ALIGNMENT);
  return sink.chunks.length === 1 ? sink.chunks[0]! : Buffer.concat(sink.chunks);
}

/** The file's header, metadata and tensor infos, padded to where the first tensor's data starts. */
export function ggufHeader(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufTensorInfo[]): Uint8Array[] {
  const head = new ByteSink();
  head.bytes(new TextEncoder().encode("GGUF"));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.size + 1);
  head.string("general.alignment");
  writeValue(head, { type: "u32", value: GGUF_ALIGNMENT });
  for (const [key, value] of metadata) {
    head.string(key);
    writeValue(head, value);
  }
  let offset = 0;
  for (const t of tensors) {
    head.string(t.name);
    head.u32(t.dims.length);
    t.dims.forEach((d) => head.u64(d));
    head.u32(t.type);
    head.u64(offset);
    offset += Math.ceil(tensorByteLength(t) / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
  }
  head.padTo(GGUF_ALIGNMENT);
  return head.chunks;
}

/** Serializes a whole GGUF file as a list of chunks (write them in order). */
export function encodeGguf(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufTensor[]): Uint8Array[] {
  return [...ggufHeader(metadata, tensors), ...tensors.map(tensorBytes)];
}
