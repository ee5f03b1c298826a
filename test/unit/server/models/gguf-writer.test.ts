import assert from "node:assert/strict";
import { ggufHeader, tensorBytes, TensorType } from "../../../../src/server/models/gguf-writer";

describe("GGUF tensor data", () => {
  it("writes a header whose tensor offsets follow each type's size, and data padded to them", () => {
    const tensors = [
      { name: "tensor_a", dims: [64, 2], type: TensorType.Q4_0, data: new Float32Array(128).fill(1) },
      { name: "tensor_b", dims: [3], type: TensorType.F32, data: new Float32Array(3) },
      { name: "tensor_c", dims: [32], type: TensorType.Q8_0, data: new Float32Array(32) },
      { name: "tensor_d", dims: [64], type: TensorType.Q5_0, data: new Float32Array(64).fill(-1) },
    ];
    const header = Buffer.concat(ggufHeader(new Map(), tensors));
    assert.equal(header.length % 32, 0);
    const offsetOf = (name: string) => Number(header.readBigUInt64LE(header.indexOf(Buffer.from(name)) + name.length + 4 + 8 * tensors.find((t) => t.name === name)!.dims.length + 4));
    assert.deepEqual(["tensor_a", "tensor_b", "tensor_c", "tensor_d"].map(offsetOf), [0, 96, 128, 192]);
    assert.deepEqual(tensors.map((t) => tensorBytes(t).length), [96, 32, 64, 64]);
  });
});
