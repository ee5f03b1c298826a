import * as ort from "onnxruntime-node";
import { float16ToNumber, toFloat16Bits } from "../../../core/base/float16";

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
