import assert from "node:assert/strict";
import { ProtoWriter } from "../../../src/server/engines/image/onnx/proto-writer";
import { float16ToNumber, toFloat16Bits } from "../../../src/core/base/float16";

describe("protobuf writer", () => {
  const hex = (w: ProtoWriter) => Buffer.from(w.toBytes()).toString("hex");

  it("encodes varints, strings and nested messages as protobuf does", () => {
    assert.equal(hex(new ProtoWriter().varint(1, 150)), "089601");
    assert.equal(hex(new ProtoWriter().string(2, "testing")), "120774657374696e67");
    assert.equal(hex(new ProtoWriter().message(3, new ProtoWriter().varint(1, 150))), "1a03089601");
  });

  it("encodes negative int64 values in ten bytes (two's complement)", () => {
    assert.equal(hex(new ProtoWriter().varint(1, -1)), "08ffffffffffffffffff01");
  });

  it("packs repeated varints and writes little-endian floats", () => {
    assert.equal(hex(new ProtoWriter().packedVarints(4, [3, 270, 86942])), "2206038e029ea705");
    assert.equal(hex(new ProtoWriter().float(2, 1)), "150000803f");
  });
});

describe("float16 conversion", () => {
  it("converts exact values, overflow, underflow and subnormals", () => {
    assert.deepEqual(Array.from(toFloat16Bits([1, -2, 65504, 70000, 1e-8, 2 ** -24, 0.5])), [0x3c00, 0xc000, 0x7bff, 0x7c00, 0, 0x0001, 0x3800]);
  });

  it("rounds to the nearest half-precision value", () => {
    for (const value of [0.1, 3.14159, 999.7, -12.345, 0.0001]) {
      const back = float16ToNumber(toFloat16Bits([value])[0]!);
      assert.ok(Math.abs(back - value) <= Math.abs(value) * 2 ** -11, `${value} -> ${back}`);
    }
  });
});
