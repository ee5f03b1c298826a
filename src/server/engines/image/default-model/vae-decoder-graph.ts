import type { GaussianRandom } from "../gaussian-random";
import { OnnxGraph } from "../onnx/onnx-graph";
import { conv3x3, silu } from "./layers";

export interface VaeDecoderShape {
  latentChannels: number;
  /** Channels after each of the three 2x upsamplings (8x in all, as SD's VAE). */
  channels: readonly [number, number, number, number];
}

/** latent_sample [B,4,h,w] -> sample [B,3,8h,8w] in [-1, 1]. */
export function buildVaeDecoderGraph(shape: VaeDecoderShape, random: GaussianRandom): OnnxGraph {
  const g = new OnnxGraph("vae_decoder");
  const latent = g.input("latent_sample", "float32", ["batch", shape.latentChannels, "latent_height", "latent_width"]);
  const [first, ...rest] = shape.channels;
  let h = silu(g, conv3x3(g, random, latent, shape.latentChannels, first, "conv_in"));
  let channels = first;
  const scales = g.floats("upsample_scales", [4], [1, 1, 2, 2]);
  for (const [i, next] of rest.entries()) {
    const upsampled = g.op("Resize", [h, "", scales], { mode: { s: "nearest" } });
    h = silu(g, conv3x3(g, random, upsampled, channels, next, `up_${i}`));
    channels = next;
  }
  g.op("Tanh", [conv3x3(g, random, h, channels, 3, "conv_out", 2)], {}, "sample");
  g.output("sample", "float32", ["batch", 3, "height", "width"]);
  return g;
}
