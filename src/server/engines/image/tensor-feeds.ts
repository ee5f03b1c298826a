import * as ort from "onnxruntime-node";

/**
 * Builds input tensors in whatever element type the model declares (exports differ: fp16
 * UNets, int64 timesteps, int64 token ids), and reads outputs back as float32.
 */
export class TensorFeeds {
  private readonly types: Map<string, string>;

  constructor(session: ort.InferenceSession) {
    this.types = new Map(session.inputMetadata.map((m) => [m.name, m.isTensor ? m.type : "unknown"]));
  }

  /** An input's declared dimension when it is fixed (e.g. a batch size of 1, 4 latent channels). */
  static fixedDim(session: ort.InferenceSession, name: string, index: number): number | undefined {
    const meta = session.inputMetadata.find((m) => m.name === name);
    const dim = meta?.isTensor ? meta.shape[index] : undefined;
    return typeof dim === "number" && dim > 0 ? dim : undefined;
  }

  /**
   * A tensor that follows `buffer`'s contents each time it is asked for: one tensor over the
   * buffer when the model takes float32 (onnxruntime reads it at run time), else a new conversion.
   */
  live(name: string, buffer: Float32Array, dims: readonly number[]): () => ort.Tensor {
    if (this.types.get(name) !== "float32") return () => this.tensor(name, buffer, dims);
    const tensor = this.tensor(name, buffer, dims);
    return () => tensor;
  }

  tensor(name: string, values: ArrayLike<number>, dims: readonly number[]): ort.Tensor {
    const type = this.types.get(name);
    switch (type) {
      case "float32":
        return new ort.Tensor("float32", values instanceof Float32Array ? values : Float32Array.from(values), dims);
      case "float16":
        return new ort.Tensor("float16", toFloat16Bits(values), dims);
      case "float64":
        return new ort.Tensor("float64", Float64Array.from(values), dims);
      case "int32":
        return new ort.Tensor("int32", values instanceof Int32Array ? values : Int32Array.from(values, Math.round), dims);
      case "int64":
        return new ort.Tensor("int64", BigInt64Array.from(Array.from(values, (v) => BigInt(Math.round(v)))), dims);
      default:
        throw new Error(`model input ${name} has unsupported type ${type ?? "(missing)"}`);
    }
  }
}

export function toFloat32(tensor: ort.Tensor): Float32Array {
  switch (tensor.type) {
    case "float32":
      return tensor.data as Float32Array;
    case "float16":
      return Float32Array.from(tensor.data as Uint16Array, float16ToNumber);
    default:
      return Float32Array.from(tensor.data as ArrayLike<number>);
  }
}

/** IEEE 754 binary16 bits, rounding to nearest even. */
export function toFloat16Bits(values: ArrayLike<number>): Uint16Array {
  const out = new Uint16Array(values.length);
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (let i = 0; i < values.length; i++) {
    f32[0] = values[i];
    const x = u32[0];
    const sign = (x >>> 16) & 0x8000;
    const exponent = ((x >>> 23) & 0xff) - 127 + 15;
    const mantissa = x & 0x7fffff;
    if (exponent >= 0x1f) {
      out[i] = sign | 0x7c00 | (((x >>> 23) & 0xff) === 0xff && mantissa ? 0x200 : 0);
    } else if (exponent <= 0) {
      if (exponent < -10) out[i] = sign;
      else {
        const m = mantissa | 0x800000;
        const shift = 14 - exponent;
        const half = 1 << (shift - 1);
        const rounded = (m + half - 1 + ((m >>> shift) & 1)) >>> shift;
        out[i] = sign | rounded;
      }
    } else {
      const rounded = mantissa + 0xfff + ((mantissa >>> 13) & 1);
      out[i] = rounded & 0x800000 ? sign | ((exponent + 1) << 10) : sign | (exponent << 10) | (rounded >>> 13);
      if (exponent + 1 >= 0x1f && rounded & 0x800000) out[i] = sign | 0x7c00;
    }
  }
  return out;
}

export function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
