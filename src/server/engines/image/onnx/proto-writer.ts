/**
 * A minimal protobuf encoder: just the wire types ONNX needs (varint, 32-bit float,
 * length-delimited). Fields are appended in call order; nested messages are written
 * by passing another ProtoWriter.
 */
export class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  /** Varint field (wire type 0). Negative numbers use 10-byte two's complement, as protobuf int64 does. */
  varint(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.rawVarint(BigInt(value));
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.push(bytes);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.rawVarint(BigInt(value.length));
    this.push(value);
    return this;
  }

  message(field: number, value: ProtoWriter): this {
    this.tag(field, 2);
    this.rawVarint(BigInt(value.length));
    for (const chunk of value.chunks) this.push(chunk);
    return this;
  }

  /** Packed repeated varints (proto3 default for repeated scalars). */
  packedVarints(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.rawVarint(BigInt(v));
    return this.message(field, inner);
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(BigInt((field << 3) | wireType));
  }

  private rawVarint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    const bytes: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v !== 0n);
    this.push(Uint8Array.from(bytes));
  }

  private push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }
}
