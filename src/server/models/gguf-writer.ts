// A minimal GGUF v3 writer: header, metadata key/values, tensor infos, aligned tensor data.
// Only what the generated and trained models need (scalars, strings, arrays of those; f32, f16
// and q8_0 tensors).

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
  /** Blocks of 32 int8 values with one f16 scale each (ggml's q8_0): rows must be multiples of 32. */
  Q8_0 = 8,
}

/** Values per q8_0 block, and the block's bytes (an f16 scale, then 32 int8 values). */
export const Q8_0_BLOCK = 32;
const Q8_0_BLOCK_BYTES = 2 + Q8_0_BLOCK;

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length). */
  dims: readonly number[];
  type: TensorType;
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

function tensorBytes(t: GgufTensor): Uint8Array {
  if (t.type === TensorType.F32) return new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  if (t.type === TensorType.Q8_0) {
    if (t.dims[0]! % Q8_0_BLOCK !== 0) throw new Error(`${t.name}: q8_0 rows must be multiples of ${Q8_0_BLOCK}`);
    return quantizeQ8_0(t.data);
  }
  const half = new Uint16Array(t.data.length);
  for (let i = 0; i < t.data.length; i++) half[i] = toHalf(t.data[i]!);
  return new Uint8Array(half.buffer);
}

/** Serializes a whole GGUF file as a list of chunks (write them in order). */
export function encodeGguf(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufTensor[]): Uint8Array[] {
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
  const datas = tensors.map(tensorBytes);
  let offset = 0;
  tensors.forEach((t, i) => {
    head.string(t.name);
    head.u32(t.dims.length);
    t.dims.forEach((d) => head.u64(d));
    head.u32(t.type);
    head.u64(offset);
    offset += Math.ceil(datas[i]!.length / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
  });
  head.padTo(GGUF_ALIGNMENT);
  const body = new ByteSink();
  for (const d of datas) {
    body.bytes(d);
    body.padTo(GGUF_ALIGNMENT);
  }
  return [...head.chunks, ...body.chunks];
}
