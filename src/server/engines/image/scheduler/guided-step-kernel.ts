import { F32, I32, V128, kernelModule, layOut, wasm } from "../wasm/wasm-encoder";

/**
 * The guided Euler update (the usual step) as a WebAssembly SIMD loop, four float32 lanes at a
 * time: about a tenth of the JavaScript loop's time, which at small sizes was the pipeline's
 * largest cost besides the model runs. The arithmetic is float32, operation for operation as in
 * `guidedPairStepJs`, so both give the same bits; the latent and the model inputs live in the
 * kernel's memory so that the step reads and writes them in place.
 */
export class GuidedStepKernel {
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly run: (output: number, sample: number, first: number, second: number, bytes: number, ...coefficients: number[]) => void;
  private scratch: Float32Array = new Float32Array(0);

  constructor(module: WebAssembly.Module) {
    const instance = new WebAssembly.Instance(module, { env: { memory: this.memory } });
    this.run = instance.exports.step as GuidedStepKernel["run"];
  }

  static compile(): WebAssembly.Module {
    return kernelModule(guidedStepFunction());
  }

  /**
   * Float32 arrays of these lengths in the kernel's memory, plus room for a model output of
   * `outputLength`. Arrays from an earlier call must not be used after this one.
   */
  allocate(lengths: readonly number[], outputLength: number): Float32Array[] {
    const arrays = layOut(this.memory, [...lengths, outputLength]);
    this.scratch = arrays.pop()!;
    return arrays;
  }

  /**
   * sample = sample + (guided * fromOutput + sample * fromSample), guided = uncond + guidance *
   * (cond - uncond) from the [uncond, cond] `output`; then sample * scale into both halves of
   * `next`. False, with nothing changed, where the kernel cannot take these arrays.
   */
  guidedPairStep(output: Float32Array, sample: Float32Array, next: Float32Array, coefficients: GuidedStepCoefficients): boolean {
    const n = sample.length;
    const own = (array: Float32Array) => array.buffer === this.memory.buffer;
    if (n % 4 !== 0 || output.length !== 2 * n || next.length !== 2 * n || this.scratch.length !== 2 * n || !own(sample) || !own(next)) return false;
    this.scratch.set(output);
    const { guidance, fromOutput, fromSample, scale } = coefficients;
    this.run(this.scratch.byteOffset, sample.byteOffset, next.byteOffset, next.byteOffset + 4 * n, 4 * n, guidance, fromOutput, fromSample, scale);
    return true;
  }
}

export interface GuidedStepCoefficients {
  guidance: number;
  fromOutput: number;
  fromSample: number;
  scale: number;
}

/** The same update in JavaScript, float32 operation for operation (each result rounded with fround). */
export function guidedPairStepJs(output: Float32Array, sample: Float32Array, next: Float32Array, coefficients: GuidedStepCoefficients): void {
  const f = Math.fround;
  const guidance = f(coefficients.guidance);
  const fromOutput = f(coefficients.fromOutput);
  const fromSample = f(coefficients.fromSample);
  const scale = f(coefficients.scale);
  const n = sample.length;
  for (let i = 0; i < n; i++) {
    const uncond = output[i];
    const x = sample[i];
    const guided = f(uncond + f(guidance * f(output[n + i] - uncond)));
    const value = f(x + f(f(guided * fromOutput) + f(x * fromSample)));
    sample[i] = value;
    const scaled = f(value * scale);
    next[i] = scaled;
    next[n + i] = scaled;
  }
}

/** step(output, sample, first, second, bytes: i32; guidance, fromOutput, fromSample, scale: f32), offsets in bytes. */
function guidedStepFunction() {
  const { localGet: get, localSet: set } = wasm;
  const [output, sample, first, second, bytes, guidance, fromOutput, fromSample, scale] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const [i, vGuidance, vFromOutput, vFromSample, vScale, x, uncond, value] = [9, 10, 11, 12, 13, 14, 15, 16];
  const at = (base: number) => [...get(base), ...get(i), ...wasm.i32Add];
  const splat = (from: number, to: number) => [...get(from), ...wasm.f32x4Splat, ...set(to)];
  const body = [
    ...splat(guidance, vGuidance),
    ...splat(fromOutput, vFromOutput),
    ...splat(fromSample, vFromSample),
    ...splat(scale, vScale),
    ...wasm.block,
    ...get(bytes), ...wasm.i32Eqz, ...wasm.brIf(0),
    ...wasm.loop,
    ...at(output), ...wasm.v128Load(), ...set(uncond),
    ...at(sample), ...wasm.v128Load(), ...set(x),
    // x + ((uncond + guidance * (cond - uncond)) * fromOutput + x * fromSample); cond is `bytes` after uncond
    ...get(x),
    ...get(uncond), ...get(vGuidance),
    ...get(output), ...get(bytes), ...wasm.i32Add, ...get(i), ...wasm.i32Add, ...wasm.v128Load(),
    ...get(uncond), ...wasm.f32x4Sub, ...wasm.f32x4Mul, ...wasm.f32x4Add,
    ...get(vFromOutput), ...wasm.f32x4Mul,
    ...get(x), ...get(vFromSample), ...wasm.f32x4Mul,
    ...wasm.f32x4Add, ...wasm.f32x4Add, ...set(value),
    ...at(sample), ...get(value), ...wasm.v128Store(),
    ...get(value), ...get(vScale), ...wasm.f32x4Mul, ...set(value),
    ...at(first), ...get(value), ...wasm.v128Store(),
    ...at(second), ...get(value), ...wasm.v128Store(),
    ...get(i), ...wasm.i32Const(16), ...wasm.i32Add, ...wasm.localTee(i), ...get(bytes), ...wasm.i32LtU, ...wasm.brIf(0),
    ...wasm.end, // loop
    ...wasm.end, // block
  ];
  return { name: "step", params: [I32, I32, I32, I32, I32, F32, F32, F32, F32], locals: [I32, V128, V128, V128, V128, V128, V128, V128], body };
}
