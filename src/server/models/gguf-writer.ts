// A minimal GGUF v3 writer: header, metadata key/values, tensor infos, aligned tensor data.
// Only what the generated and trained models need (scalars, strings, arrays of those; f32, f16,
// and the block formats of ggml-blocks.ts). Large files are written a tensor at a time (ggufHeader, tensorBytes).
import { toFloat16Bits } from "../../core/base/float16";
import { BLOCK, q4_0, q5_0, q8_0, type BlockFormat } from "./ggml-blocks";

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

/** ggml's tensor types the project writes; the block formats are in ggml-blocks.ts. */
export enum TensorType {
  F32 = 0,
  F16 = 1,
  /** Blocks of 32 4-bit values with one f16 scale each (ggml's q4_0): rows must be multiples of 32. */
  Q4_0 = 2,
  /** Blocks of 32 5-bit values with one f16 scale each (ggml's q5_0): rows must be multiples of 32. */
  Q5_0 = 6,
  /** Blocks of 32 int8 values with one f16 scale each (ggml's q8_0): rows must be multiples of 32. */
  Q8_0 = 8,
}

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

/** Each type's name as ggml and llama.cpp's tools spell it. */
export const tensorTypeNames: Readonly<Record<TensorType, string>> = {
  [TensorType.F32]: "f32",
  [TensorType.F16]: "f16",
  [TensorType.Q4_0]: "q4_0",
  [TensorType.Q5_0]: "q5_0",
  [TensorType.Q8_0]: "q8_0",
};

/** The block-quantized types' formats. */
export const blockFormats: ReadonlyMap<TensorType, BlockFormat> = new Map([
  [TensorType.Q4_0, q4_0],
  [TensorType.Q5_0, q5_0],
  [TensorType.Q8_0, q8_0],
]);

/** The bytes a tensor's data takes in the file (before alignment). */
export function tensorByteLength(t: GgufTensorInfo): number {
  const count = t.dims.reduce((a, b) => a * b, 1);
  const format = blockFormats.get(t.type);
  if (format) {
    if (t.dims[0]! % BLOCK !== 0) throw new Error(`${t.name}: quantized rows must be multiples of ${BLOCK}`);
    return (count / BLOCK) * format.bytes;
  }
  return count * (t.type === TensorType.F32 ? 4 : 2);
}

/** A tensor's data in its file type, padded to the alignment: write these after ggufHeader, in order. */
export function tensorBytes(t: GgufTensor): Uint8Array {
  tensorByteLength(t); // checks the row length
  const sink = new ByteSink();
  const format = blockFormats.get(t.type);
  if (t.type === TensorType.F32) sink.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  else if (format) sink.bytes(format.quantize(t.data));
  else sink.bytes(new Uint8Array(toFloat16Bits(t.data).buffer));
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
