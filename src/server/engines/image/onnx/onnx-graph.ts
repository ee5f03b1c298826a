import { ProtoWriter } from "./proto-writer";

/** ONNX TensorProto.DataType codes for the element types the generator uses. */
const DATA_TYPES = { float32: 1, uint8: 2, int32: 6, int64: 7, float16: 10 } as const;
export type ElementType = keyof typeof DATA_TYPES;
export type Dim = number | string;
export type Attribute = { i: number } | { f: number } | { ints: readonly number[] } | { s: string };

const IR_VERSION = 8;
const OPSET = 17;

interface Initializer {
  name: string;
  dims: readonly number[];
  type: "float32" | "int64";
  raw: Uint8Array;
}

export interface SerializeOptions {
  /** Store initializers of at least this many bytes in an external data file with this name. */
  externalData?: { location: string; minBytes?: number };
}

export interface SerializedModel {
  model: Uint8Array;
  /** Contents of the external data file, when externalData was asked for. */
  externalData?: Uint8Array;
}

/**
 * Builds an ONNX graph node by node and serialises it as a ModelProto. Output names are
 * generated, so graph-building code reads like a sequence of operator calls.
 */
export class OnnxGraph {
  private readonly nodes: ProtoWriter[] = [];
  private readonly inputs: ProtoWriter[] = [];
  private readonly outputs: ProtoWriter[] = [];
  private readonly initializers: Initializer[] = [];
  private counter = 0;

  constructor(private readonly name: string) {}

  input(name: string, type: ElementType, dims: readonly Dim[]): string {
    this.inputs.push(valueInfo(name, type, dims));
    return name;
  }

  output(name: string, type: ElementType, dims: readonly Dim[]): void {
    this.outputs.push(valueInfo(name, type, dims));
  }

  floats(prefix: string, dims: readonly number[], data: Float32Array | readonly number[]): string {
    const values = data instanceof Float32Array ? data : Float32Array.from(data);
    return this.addInitializer(prefix, dims, "float32", new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  int64s(prefix: string, values: readonly number[]): string {
    const data = BigInt64Array.from(values, (v) => BigInt(v));
    return this.addInitializer(prefix, [values.length], "int64", new Uint8Array(data.buffer));
  }

  /** Adds a node with one output and returns the output's name. */
  op(opType: string, inputs: readonly string[], attributes: Record<string, Attribute> = {}, outputName?: string): string {
    const output = outputName ?? `${opType.toLowerCase()}_${this.counter++}`;
    const node = new ProtoWriter();
    for (const input of inputs) node.string(1, input);
    node.string(2, output).string(3, `${output}_node`).string(4, opType);
    for (const [key, value] of Object.entries(attributes)) node.message(5, attribute(key, value));
    this.nodes.push(node);
    return output;
  }

  serialize(options: SerializeOptions = {}): SerializedModel {
    const external = new ExternalDataWriter(options.externalData?.minBytes ?? 1024);
    const graph = new ProtoWriter();
    for (const node of this.nodes) graph.message(1, node);
    graph.string(2, this.name);
    for (const init of this.initializers) {
      graph.message(5, options.externalData ? external.tensor(init, options.externalData.location) : tensor(init));
    }
    for (const input of this.inputs) graph.message(11, input);
    for (const output of this.outputs) graph.message(12, output);

    const model = new ProtoWriter()
      .varint(1, IR_VERSION)
      .string(2, "wisp-model-generator")
      .message(7, graph)
      .message(8, new ProtoWriter().string(1, "").varint(2, OPSET));
    return { model: model.toBytes(), externalData: options.externalData ? external.toBytes() : undefined };
  }

  private addInitializer(prefix: string, dims: readonly number[], type: "float32" | "int64", raw: Uint8Array): string {
    const name = `${prefix}_${this.counter++}`;
    this.initializers.push({ name, dims, type, raw: raw.slice() });
    return name;
  }
}

function valueInfo(name: string, type: ElementType, dims: readonly Dim[]): ProtoWriter {
  const shape = new ProtoWriter();
  for (const dim of dims) {
    shape.message(1, typeof dim === "number" ? new ProtoWriter().varint(1, dim) : new ProtoWriter().string(2, dim));
  }
  const tensorType = new ProtoWriter().varint(1, DATA_TYPES[type]).message(2, shape);
  return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
}

function attribute(name: string, value: Attribute): ProtoWriter {
  const attr = new ProtoWriter().string(1, name);
  if ("i" in value) return attr.varint(3, value.i).varint(20, 2);
  if ("f" in value) return attr.float(2, value.f).varint(20, 1);
  if ("s" in value) return attr.string(4, value.s).varint(20, 3);
  return attr.packedVarints(8, value.ints).varint(20, 7);
}

function tensorHeader(init: Initializer): ProtoWriter {
  return new ProtoWriter().packedVarints(1, init.dims).varint(2, DATA_TYPES[init.type]).string(8, init.name);
}

function tensor(init: Initializer): ProtoWriter {
  return tensorHeader(init).bytes(9, init.raw);
}

/** Collects large initializers into one external data file, 64-byte aligned (ORT may mmap it). */
class ExternalDataWriter {
  private readonly chunks: Uint8Array[] = [];
  private offset = 0;

  constructor(private readonly minBytes: number) {}

  tensor(init: Initializer, location: string): ProtoWriter {
    if (init.raw.length < this.minBytes) return tensor(init);
    const padding = (64 - (this.offset % 64)) % 64;
    if (padding) this.append(new Uint8Array(padding));
    const start = this.offset;
    this.append(init.raw);
    const entry = (key: string, value: string) => new ProtoWriter().string(1, key).string(2, value);
    return tensorHeader(init)
      .message(13, entry("location", location))
      .message(13, entry("offset", String(start)))
      .message(13, entry("length", String(init.raw.length)))
      .varint(14, 1);
  }

  toBytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }

  private append(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.offset += bytes.length;
  }
}
