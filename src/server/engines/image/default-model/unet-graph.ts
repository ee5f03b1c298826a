import type { GaussianRandom } from "../gaussian-random";
import { OnnxGraph } from "../onnx/onnx-graph";
import { conv3x3, denseWeights, linear, silu } from "./layers";

export interface UnetShape {
  latentChannels: number;
  channels: number;
  contextLength: number;
  hiddenSize: number;
  /** The timestep input's element type: exports differ (float32, float16 or int64). */
  timestepType: "float32" | "float16" | "int64";
  /** Some exports fix the batch size to 1, so guidance takes two runs per step. */
  batch: number | "batch";
  /** Static-shape exports fix the latent's height and width too (the model makes one size). */
  latentSize?: number;
}

/**
 * A UNet-shaped noise predictor with the diffusers signature: sample [B,4,h,w], timestep [B],
 * encoder_hidden_states [B,77,D] -> out_sample [B,4,h,w]. It has a sinusoidal timestep
 * embedding, convolutions and one real cross-attention from the image to the text.
 */
export function buildUnetGraph(shape: UnetShape, random: GaussianRandom): OnnxGraph {
  const { latentChannels: Z, channels: C, contextLength: L, hiddenSize: D } = shape;
  const g = new OnnxGraph("unet");
  const [height, width] = shape.latentSize === undefined ? ["height", "width"] : [shape.latentSize, shape.latentSize];
  const sample = g.input("sample", "float32", [shape.batch, Z, height, width]);
  const timestep = g.input("timestep", shape.timestepType, [shape.batch]);
  const context = g.input("encoder_hidden_states", "float32", [shape.batch, L, D]);

  const embedding = timestepEmbedding(g, random, timestep, C);
  let h = g.op("Add", [conv3x3(g, random, sample, Z, C, "conv_in"), embedding]);
  h = conv3x3(g, random, silu(g, h), C, C, "conv_mid");
  h = g.op("Add", [h, crossAttention(g, random, h, context, C, D)]);
  const predicted = conv3x3(g, random, silu(g, h), C, Z, "conv_out", 0.5);
  // The skip from the input makes the prediction look like the noise in the input, as a trained
  // model's does, so sampling converges to a small latent shaped by the text.
  g.op("Add", [sample, predicted], {}, "out_sample");
  g.output("out_sample", "float32", [shape.batch, Z, height, width]);
  return g;
}

/** Sinusoidal embedding of the timestep, then an MLP, as [B,C,1,1] to add to feature maps. */
function timestepEmbedding(g: OnnxGraph, random: GaussianRandom, timestep: string, C: number): string {
  const half = C / 2;
  const frequencies = Array.from({ length: half }, (_, i) => Math.exp((-Math.log(10000) * i) / half));
  const t = g.op("Unsqueeze", [g.op("Cast", [timestep], { to: { i: 1 } }), g.int64s("axis1", [1])]);
  const angles = g.op("Mul", [t, g.floats("frequencies", [1, half], frequencies)]);
  const sinusoid = g.op("Concat", [g.op("Sin", [angles]), g.op("Cos", [angles])], { axis: { i: 1 } });
  const hidden = linear(g, random, silu(g, linear(g, random, sinusoid, C, C, "time_1")), C, C, "time_2");
  return g.op("Unsqueeze", [hidden, g.int64s("axes23", [2, 3])]);
}

/** Single-head attention: queries from the feature map's pixels, keys and values from the text. */
function crossAttention(g: OnnxGraph, random: GaussianRandom, h: string, context: string, C: number, D: number): string {
  const projection = (x: string, inFeatures: number, name: string) =>
    g.op("MatMul", [x, g.floats(name, [inFeatures, C], denseWeights(random, inFeatures, inFeatures * C))]);
  const pixels = g.op("Transpose", [g.op("Reshape", [h, g.int64s("flatten", [0, 0, -1])])], { perm: { ints: [0, 2, 1] } });
  const query = projection(pixels, C, "to_q");
  const key = projection(context, D, "to_k");
  const value = projection(context, D, "to_v");
  const scores = g.op("Mul", [
    g.op("MatMul", [query, g.op("Transpose", [key], { perm: { ints: [0, 2, 1] } })]),
    g.floats("scale", [1], [1 / Math.sqrt(C)]),
  ]);
  const attended = g.op("MatMul", [g.op("Softmax", [scores], { axis: { i: -1 } }), value]);
  const out = projection(attended, C, "to_out");
  return g.op("Reshape", [g.op("Transpose", [out], { perm: { ints: [0, 2, 1] } }), g.op("Shape", [h])]);
}
