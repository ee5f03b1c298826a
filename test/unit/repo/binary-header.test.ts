import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readBinaryHeader } from "../../../scripts/package/binary-header.mjs";

const root = join(import.meta.dirname, "..", "..", "..");

/** A little-endian ELF header for `machine`. */
function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.write("\x7fELF", 0, "latin1");
  b[4] = 2; // 64-bit
  b[5] = 1; // little-endian
  b.writeUInt16LE(machine, 18);
  return b;
}

/** A PE file: the DOS stub pointing at a PE header for `machine`. */
function pe(machine: number): Buffer {
  const b = Buffer.alloc(256);
  b.write("MZ", 0, "latin1");
  b.writeUInt32LE(0x80, 0x3c);
  b.write("PE\0\0", 0x80, "latin1");
  b.writeUInt16LE(machine, 0x84);
  return b;
}

/** A fat Mach-O file with one slice per CPU type. */
function fat(cpus: number[]): Buffer {
  const b = Buffer.alloc(8 + cpus.length * 20);
  b.writeUInt32BE(0xcafebabe, 0);
  b.writeUInt32BE(cpus.length, 4);
  cpus.forEach((cpu, i) => b.writeInt32BE(cpu, 8 + i * 20));
  return b;
}

describe("readBinaryHeader: what a native binary is built for", () => {
  it("reads ELF x86-64 and aarch64 (this machine's own engines are ELF x64)", () => {
    assert.deepEqual(readBinaryHeader(elf(0x3e)), { format: "ELF", archs: ["x64"] });
    assert.deepEqual(readBinaryHeader(elf(0xb7)), { format: "ELF", archs: ["arm64"] });
    const addon = readFileSync(join(root, "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node"));
    assert.deepEqual(readBinaryHeader(addon.subarray(0, 4096)), { format: "ELF", archs: [process.arch] });
  });

  it("reads thin Mach-O arm64 and x86-64, and each slice of a fat (universal) file", () => {
    const thin = (cpu: number) => Buffer.from([0xcf, 0xfa, 0xed, 0xfe, ...Buffer.from(new Int32Array([cpu]).buffer), 0, 0, 0, 0]);
    assert.deepEqual(readBinaryHeader(thin(0x0100000c)), { format: "Mach-O", archs: ["arm64"] });
    assert.deepEqual(readBinaryHeader(thin(0x01000007)), { format: "Mach-O", archs: ["x64"] });
    assert.deepEqual(readBinaryHeader(fat([0x01000007, 0x0100000c])), { format: "Mach-O", archs: ["x64", "arm64"] });
  });

  it("reads PE x64 and arm64", () => {
    assert.deepEqual(readBinaryHeader(pe(0x8664)), { format: "PE", archs: ["x64"] });
    assert.deepEqual(readBinaryHeader(pe(0xaa64)), { format: "PE", archs: ["arm64"] });
  });

  it("names a machine it does not know instead of guessing, and rejects what is no binary", () => {
    assert.deepEqual(readBinaryHeader(elf(0x1234)), { format: "ELF", archs: ["unknown (0x1234)"] });
    // A Java class file shares the fat magic; its version (here 61) is no slice count.
    assert.equal(readBinaryHeader(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 61, 0, 0, 0, 0])), undefined);
    assert.equal(readBinaryHeader(Buffer.from("MZ but no PE header here, only text padding it out to length.......")), undefined);
    assert.equal(readBinaryHeader(Buffer.from("{\"name\": \"sharp\"}")), undefined);
    assert.equal(readBinaryHeader(Buffer.alloc(4)), undefined);
  });
});
