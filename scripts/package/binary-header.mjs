// What a native binary is built for, read from its first bytes: ELF (Linux), Mach-O (macOS, also
// fat/universal files holding several architectures) or PE (Windows). Used to check that a
// platform's package holds that platform's binaries only.

const elfMachines = { 0x03: "ia32", 0x28: "arm", 0x3e: "x64", 0xb7: "arm64", 0xf3: "riscv64" };
const machCpus = { 0x7: "ia32", 0x01000007: "x64", 0xc: "arm", 0x0100000c: "arm64" };
const peMachines = { 0x14c: "ia32", 0x1c4: "arm", 0x8664: "x64", 0xaa64: "arm64" };

/** The operating system whose loader reads each format, as Node names it. */
export const formatPlatform = { ELF: "linux", "Mach-O": "darwin", PE: "win32" };

/**
 * { format, archs } for a native binary's leading bytes (a few KB are enough), or undefined when
 * they are not one. archs holds one architecture, or each of a fat Mach-O file's.
 */
export function readBinaryHeader(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 8) return undefined;
  if (b.readUInt32BE(0) === 0x7f454c46) {
    if (b.length < 20) return undefined;
    const machine = b[5] === 2 ? b.readUInt16BE(18) : b.readUInt16LE(18);
    return { format: "ELF", archs: [name(elfMachines, machine)] };
  }
  const magicLE = b.readUInt32LE(0);
  if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) return { format: "Mach-O", archs: [name(machCpus, b.readInt32LE(4))] };
  const magicBE = b.readUInt32BE(0);
  if (magicBE === 0xcafebabe || magicBE === 0xcafebabf) {
    const count = b.readUInt32BE(4);
    // Java class files share the magic; their next field is a version (45 and up), never a small count.
    if (count === 0 || count > 16) return undefined;
    const size = magicBE === 0xcafebabf ? 32 : 20;
    const archs = [];
    for (let i = 0; i < count; i++) {
      const at = 8 + i * size;
      if (at + 4 > b.length) return undefined;
      archs.push(name(machCpus, b.readInt32BE(at)));
    }
    return { format: "Mach-O", archs };
  }
  if (b.readUInt16LE(0) === 0x5a4d && b.length >= 0x40) {
    const pe = b.readUInt32LE(0x3c);
    if (pe + 6 > b.length || b.readUInt32BE(pe) !== 0x50450000) return undefined;
    return { format: "PE", archs: [name(peMachines, b.readUInt16LE(pe + 4))] };
  }
  return undefined;
}

function name(table, code) {
  return table[code] ?? `unknown (0x${(code >>> 0).toString(16)})`;
}
