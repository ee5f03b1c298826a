import assert from "node:assert/strict";
import { describeMachine, recommendCoderModel, type GpuFact } from "../../../../src/core/onboarding/recommend-model";

const GB = 2 ** 30;
const none: GpuFact = { kind: "none" };
const apple: GpuFact = { kind: "apple-silicon" };
const nvidia: GpuFact = { kind: "nvidia", name: "NVIDIA GeForce RTX 4090", memoryBytes: 24 * GB };

describe("recommendCoderModel: the coder model for a machine (docs/models.md has this table)", () => {
  // memory as the OS reports it (a "16 GB" laptop reports about 15.5 GiB), cores, GPU → size
  const table: [string, number, number, GpuFact, string][] = [
    ["a 4 GB netbook", 3.8, 4, none, "0.5b"],
    ["an 8 GB laptop with 2 cores", 7.7, 2, none, "0.5b"],
    ["a 24 GB VM with 2 cores", 23.4, 2, none, "0.5b"],
    ["an 8 GB laptop with 4 cores", 7.7, 4, none, "1.5b"],
    ["an 8 GB laptop with 8 cores", 7.7, 8, none, "1.5b"],
    ["a 12 GB laptop with 8 cores", 11.6, 8, none, "1.5b"],
    ["a 16 GB laptop with 4 cores", 15.5, 4, none, "1.5b"],
    ["a 16 GB laptop with 8 cores", 15.5, 8, none, "7b"],
    ["a 32 GB workstation with 16 cores", 31.2, 16, none, "7b"],
    ["an 8 GB Mac on Apple silicon", 8, 8, apple, "1.5b"],
    ["a 16 GB Mac on Apple silicon with 8 cores", 16, 8, apple, "7b"],
    ["a 16 GB Mac on Apple silicon with 2 cores counted", 16, 2, apple, "7b"],
    ["an 8 GB machine with an NVIDIA GPU the bundled server does not use", 7.7, 4, nvidia, "1.5b"],
    ["a 16 GB, 4-core machine with an NVIDIA GPU", 15.5, 4, nvidia, "1.5b"],
  ];
  for (const [machine, gib, cores, gpu, size] of table) {
    it(`${machine}: ${size}`, () => {
      const recommended = recommendCoderModel({ memoryBytes: gib * GB, cores, gpu });
      assert.equal(recommended.size, size);
      assert.match(recommended.why, /\d+ (GB|cores)/, "the reason names the machine's figures");
    });
  }

  it("says why in terms of the machine", () => {
    assert.equal(recommendCoderModel({ memoryBytes: 15.5 * GB, cores: 4, gpu: none }).why, "16 GB of memory but 4 cores: the 7B model would fit, but its ghost text would come late on the CPU");
    assert.equal(recommendCoderModel({ memoryBytes: 3.8 * GB, cores: 4, gpu: none }).why, "4 GB of memory: the 0.5B model leaves room for the editor and the rest");
  });

  it("describes the machine, and says when a GPU is there that the bundled server does not use", () => {
    assert.equal(describeMachine({ memoryBytes: 15.5 * GB, cores: 8, gpu: none }), "16 GB of memory, 8 cores, no GPU the local server uses");
    assert.equal(describeMachine({ memoryBytes: 16 * GB, cores: 1, gpu: apple }), "16 GB of memory, 1 core, Apple silicon's GPU (Metal, used by the local server)");
    assert.match(describeMachine({ memoryBytes: 64 * GB, cores: 16, gpu: nvidia }), /NVIDIA GeForce RTX 4090 \(24 GB\), which the bundled server does not use/);
  });
});
