import type { GaussianRandom } from "../gaussian-random";
import type { OnnxGraph } from "../onnx/onnx-graph";

/** Random weights scaled by 1/sqrt(fan-in), so activations keep roughly unit size through layers. */
export function denseWeights(random: GaussianRandom, fanIn: number, count: number, gain = 1): Float32Array {
  return random.normals(count, gain / Math.sqrt(fanIn));
}

/** x @ W + b for x [..., inFeatures]. */
export function linear(g: OnnxGraph, random: GaussianRandom, x: string, inFeatures: number, outFeatures: number, name: string): string {
  const weight = g.floats(`${name}_weight`, [inFeatures, outFeatures], denseWeights(random, inFeatures, inFeatures * outFeatures));
  return g.op("Add", [g.op("MatMul", [x, weight]), g.floats(`${name}_bias`, [outFeatures], random.normals(outFeatures, 0.1))]);
}

/** 3x3 convolution with "same" padding over NCHW. */
export function conv3x3(
  g: OnnxGraph,
  random: GaussianRandom,
  x: string,
  inChannels: number,
  outChannels: number,
  name: string,
  gain = 1,
): string {
  const fanIn = inChannels * 9;
  const weight = g.floats(`${name}_weight`, [outChannels, inChannels, 3, 3], denseWeights(random, fanIn, outChannels * fanIn, gain));
  const bias = g.floats(`${name}_bias`, [outChannels], random.normals(outChannels, 0.1 * gain));
  return g.op("Conv", [x, weight, bias], { kernel_shape: { ints: [3, 3] }, pads: { ints: [1, 1, 1, 1] } });
}

export function silu(g: OnnxGraph, x: string): string {
  return g.op("Mul", [x, g.op("Sigmoid", [x])]);
}
