import { GaussianRandom } from "../gaussian-random";
import { OnnxGraph } from "../onnx/onnx-graph";
import { linear } from "./layers";

export interface TextEncoderShape {
  vocabSize: number;
  contextLength: number;
  hiddenSize: number;
}

/**
 * A CLIP-text-encoder-shaped graph: input_ids int32 [B,77] -> last_hidden_state [B,77,D] and
 * pooler_output [B,D]. Token + position embeddings, one residual MLP block, layer norm.
 */
export function buildTextEncoderGraph(shape: TextEncoderShape, random: GaussianRandom): OnnxGraph {
  const { vocabSize, contextLength: L, hiddenSize: D } = shape;
  const g = new OnnxGraph("text_encoder");
  const ids = g.input("input_ids", "int32", ["batch", L]);

  const tokens = g.op("Gather", [g.floats("token_embedding", [vocabSize, D], random.normals(vocabSize * D)), ids]);
  const embedded = g.op("Add", [tokens, g.floats("position_embedding", [L, D], random.normals(L * D, 0.5))]);
  const projected = linear(g, random, embedded, D, D, "mlp");
  const residual = g.op("Add", [embedded, g.op("Tanh", [projected])]);
  const hidden = g.op(
    "LayerNormalization",
    [residual, g.floats("ln_scale", [D], new Float32Array(D).fill(1)), g.floats("ln_bias", [D], new Float32Array(D))],
    { axis: { i: -1 }, epsilon: { f: 1e-5 } },
    "last_hidden_state",
  );
  g.op("ReduceMean", [hidden], { axes: { ints: [1] }, keepdims: { i: 0 } }, "pooler_output");

  g.output("last_hidden_state", "float32", ["batch", L, D]);
  g.output("pooler_output", "float32", ["batch", D]);
  return g;
}
