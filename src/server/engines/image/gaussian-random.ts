/**
 * Seeded pseudo-random numbers (xoshiro128** seeded through splitmix32) with normal samples
 * by Box-Muller. Deterministic across platforms, which is what makes "same seed, same bytes" hold.
 */
export class GaussianRandom {
  private readonly s = new Uint32Array(4);
  private readonly pair = new Float64Array(2);
  private hasSpare = false;

  constructor(seed: number) {
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result / 4294967296;
  }

  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.pair[1];
    }
    this.nextPair();
    this.hasSpare = true;
    return this.pair[0];
  }

  normals(count: number, scale = 1): Float32Array {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = this.normal() * scale;
    return out;
  }

  /** Box-Muller: two independent standard normals into `pair` (a typed array: no number boxing per draw). */
  private nextPair(): void {
    const u = 1 - this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.pair[0] = r * Math.cos(2 * Math.PI * v);
    this.pair[1] = r * Math.sin(2 * Math.PI * v);
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
