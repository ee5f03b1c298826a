/**
 * Just enough of the WebAssembly binary format to write the pipeline's two SIMD kernels: one
 * exported function over an imported memory. Instructions are byte arrays named after the
 * text format, so a kernel reads like its .wat.
 */

const leb = (value: number): number[] => {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
};
/** Signed LEB128 for a non-negative value: a set sign bit (0x40) in the last byte would read as negative. */
const sleb = (value: number): number[] => {
  const out: number[] = [];
  while (value >= 0x40) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
  return out;
};
const simd = (opcode: number) => [0xfd, ...leb(opcode)];
/** 16-byte aligned access at a constant offset from the address on the stack. */
const memarg = (offset: number) => [4, ...leb(offset)];

export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

export const wasm = {
  localGet: (index: number) => [0x20, index],
  localSet: (index: number) => [0x21, index],
  localTee: (index: number) => [0x22, index],
  i32Const: (value: number) => [0x41, ...sleb(value)],
  i32Add: [0x6a],
  i32LtU: [0x49],
  i32Eqz: [0x45],
  /** block ... end, left early by brIf(0) */
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  brIf: (depth: number) => [0x0d, depth],
  end: [0x0b],
  v128Load: (offset = 0) => [...simd(0x00), ...memarg(offset)],
  v128Store: (offset = 0) => [...simd(0x0b), ...memarg(offset)],
  i8x16Shuffle: (lanes: readonly number[]) => [...simd(0x0d), ...lanes],
  i32x4Splat: simd(0x11),
  f32x4Splat: simd(0x13),
  i8x16NarrowI16x8U: simd(0x66),
  f32x4Nearest: simd(0x6a),
  i16x8NarrowI32x4S: simd(0x85),
  f32x4Add: simd(0xe4),
  f32x4Sub: simd(0xe5),
  f32x4Mul: simd(0xe6),
  i32x4TruncSatF32x4S: simd(0xf8),
};

export interface KernelFunction {
  name: string;
  params: readonly number[];
  /** Local types after the parameters, one entry per local. */
  locals: readonly number[];
  body: readonly number[];
}

/** A module importing `env.memory` and exporting `fn`. */
export function kernelModule(fn: KernelFunction): WebAssembly.Module {
  const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes];
  const text = (name: string) => [name.length, ...new TextEncoder().encode(name)];
  const localGroups = fn.locals.map((type) => [1, type]).flat();
  const code = [fn.locals.length, ...localGroups, ...fn.body, ...wasm.end];
  const bytes = new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, fn.params.length, ...fn.params, 0]),
    ...section(2, [1, ...text("env"), ...text("memory"), 0x02, 0x00, 1]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...text(fn.name), 0x00, 0]),
    ...section(10, [1, ...leb(code.length), ...code]),
  ]);
  return new WebAssembly.Module(bytes);
}

/**
 * Float32 arrays laid out one after another in a WebAssembly memory, 16-byte aligned, growing
 * it as needed. Growing detaches earlier views, so each layout replaces the one before.
 */
export function layOut(memory: WebAssembly.Memory, lengths: readonly number[]): Float32Array[] {
  const padded = (length: number) => Math.ceil(length / 4) * 4;
  const bytes = lengths.reduce((sum, length) => sum + padded(length), 0) * 4;
  const missing = Math.ceil((bytes - memory.buffer.byteLength) / 65536);
  if (missing > 0) memory.grow(missing);
  let offset = 0;
  return lengths.map((length) => {
    const array = new Float32Array(memory.buffer, offset, length);
    offset += padded(length) * 4;
    return array;
  });
}
