// IEEE 754 half precision, as ONNX float16 tensors hold it and GGUF f16 tensors and q8_0 scales
// are read back.

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

/** IEEE 754 binary16 bits as the number they stand for. */
export function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
