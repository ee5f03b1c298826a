// The compact checkpoint train.py --compact-out writes (state.json and weights-N.q8: matrices in
// q8_0, the GGUF's own blocks, norms in float32), read back as the float32 weights export-gguf.ts
// takes. q8_0 written out again from these values gives the same bytes, so the GGUF made from a
// compact checkpoint holds exactly the weights the run returned.
import { readFileSync } from "node:fs";
import path from "node:path";
import { q8_0 } from "../../src/server/models/ggml-blocks";

export interface TrainedWeights {
  spec: { embedding: number; layers: number; heads: number; kvHeads: number; feedForward: number; contextLength: number; ropeBase: number; vocabSize: number };
  tensors: { name: string; shape: number[]; offset: number }[];
  /** float32 tensors back to back, at the offsets above (train.py's weights.bin layout). */
  weights: Buffer;
}

interface CompactState {
  spec: TrainedWeights["spec"];
  parts: number;
  tensors: { name: string; shape: number[]; type: "q8_0" | "f32"; part: number; offset: number; bytes: number }[];
}

export function readCompactWeights(dir: string): TrainedWeights {
  const state = JSON.parse(readFileSync(path.join(dir, "state.json"), "utf8")) as CompactState;
  const parts = Array.from({ length: state.parts }, (_, i) => readFileSync(path.join(dir, `weights-${i}.q8`)));
  const tensors: TrainedWeights["tensors"] = [];
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const t of state.tensors) {
    const raw = parts[t.part]!.subarray(t.offset, t.offset + t.bytes);
    const values = t.type === "q8_0" ? q8_0.dequantize(raw) : new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    if (values.length !== t.shape.reduce((a, b) => a * b, 1)) throw new Error(`${dir}: ${t.name} holds ${values.length} values for a shape of ${t.shape}`);
    chunks.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
    tensors.push({ name: t.name, shape: t.shape, offset });
    offset += values.byteLength;
  }
  return { spec: state.spec, tensors, weights: Buffer.concat(chunks) };
}

/** train.py's weights.json and weights.bin in `dir`, or else its compact checkpoint there. */
export function readTrainedWeights(dir: string): TrainedWeights {
  let described: Omit<TrainedWeights, "weights">;
  try {
    described = JSON.parse(readFileSync(path.join(dir, "weights.json"), "utf8"));
  } catch {
    return readCompactWeights(dir);
  }
  return { ...described, weights: readFileSync(path.join(dir, "weights.bin")) };
}
