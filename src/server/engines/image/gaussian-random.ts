/**
 * Seeded pseudo-random numbers (xoshiro128** seeded through splitmix32) with normal samples
 * by the ziggurat method. Deterministic across platforms, which is what makes "same seed, same
 * bytes" hold.
 */
export class GaussianRandom {
  private readonly s = new Int32Array(4);

  constructor(seed: number) {
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = z ^ (z >>> 16);
    }
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return (this.next32() >>> 0) / 4294967296;
  }

  /**
   * A standard normal by Marsaglia and Tsang's ziggurat: one 32-bit draw and a table lookup
   * nearly every time. The initial latent alone takes thousands per image, and sine, cosine and
   * logarithms for each (Box-Muller) cost as much as several UNet steps' own work.
   */
  normal(): number {
    const { k, w } = ZIGGURAT;
    const bits = this.next32();
    const layer = bits & 127;
    // The layer index shares the draw's lowest bits, which fall below float32 precision.
    return Math.abs(bits) < k[layer] ? bits * w[layer] : this.normalSlow(bits, layer);
  }

  normals(count: number, scale = 1): Float32Array {
    return this.fill(new Float32Array(count), scale);
  }

  /** Fills `out` with normals times `scale`. */
  fill(out: Float32Array, scale = 1): Float32Array {
    for (let i = 0; i < out.length; i++) out[i] = this.normal() * scale;
    return out;
  }

  /** xoshiro128**, on int32 state so that no step leaves small-integer arithmetic. */
  private next32(): number {
    const s = this.s;
    const s0 = s[0];
    const s1 = s[1];
    const s2 = s[2] ^ s0;
    const s3 = s[3] ^ s1;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9);
    s[0] = s0 ^ s3;
    s[1] = s1 ^ s2;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /** The rare draws outside a layer's rectangle: the wedge under the curve, or the tail. */
  private normalSlow(bits: number, layer: number): number {
    const { k, w, f } = ZIGGURAT;
    for (;;) {
      const x = bits * w[layer];
      if (layer === 0) {
        let tail: number;
        let y: number;
        do {
          tail = -Math.log(1 - this.uniform()) / ZIGGURAT_R;
          y = -Math.log(1 - this.uniform());
        } while (y + y < tail * tail);
        return bits > 0 ? ZIGGURAT_R + tail : -ZIGGURAT_R - tail;
      }
      if (f[layer] + this.uniform() * (f[layer - 1] - f[layer]) < Math.exp(-0.5 * x * x)) return x;
      bits = this.next32();
      layer = bits & 127;
      if (Math.abs(bits) < k[layer]) return bits * w[layer];
    }
  }
}

/** Where the ziggurat's base strip meets the tail, for 128 layers. */
const ZIGGURAT_R = 3.442619855899;

/**
 * The 128-layer ziggurat for the normal density (Marsaglia and Tsang 2000): per layer, the
 * acceptance bound on a signed 32-bit draw, the draw's scale and the density at its edge.
 * Computed once: they are constants.
 */
const ZIGGURAT = ((): { k: Int32Array; w: Float64Array; f: Float64Array } => {
  const area = 9.91256303526217e-3;
  const m = 2 ** 31;
  const k = new Int32Array(128);
  const w = new Float64Array(128);
  const f = new Float64Array(128);
  let d = ZIGGURAT_R;
  let t = d;
  const q = area / Math.exp(-0.5 * d * d);
  k[0] = (d / q) * m;
  k[1] = 0;
  w[0] = q / m;
  w[127] = d / m;
  f[0] = 1;
  f[127] = Math.exp(-0.5 * d * d);
  for (let i = 126; i >= 1; i--) {
    d = Math.sqrt(-2 * Math.log(area / d + Math.exp(-0.5 * d * d)));
    k[i + 1] = (d / t) * m;
    t = d;
    f[i] = Math.exp(-0.5 * d * d);
    w[i] = d / m;
  }
  return { k, w, f };
})();
