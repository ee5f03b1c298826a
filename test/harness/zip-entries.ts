import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  /** Uncompressed size in bytes. */
  size: number;
  /** The entry's bytes, uncompressed. */
  read(): Buffer;
}

/** The entries of a zip file (a .vsix), from its central directory: stored and deflated entries. */
export function zipEntries(file: string): ZipEntry[] {
  const zip = readFileSync(file);
  // The end-of-central-directory record: within the last 64 KiB (its comment) + 22 bytes.
  let end = zip.length - 22;
  while (end >= Math.max(0, zip.length - 65_557) && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0 || zip.readUInt32LE(end) !== 0x06054b50) throw new Error(`${file} is not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  const entries: ZipEntry[] = [];
  for (let at = zip.readUInt32LE(end + 16), i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: broken central directory at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    entries.push({
      name,
      size,
      read() {
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + compressed);
        if (method === 0) return data;
        if (method === 8) return inflateRawSync(data);
        throw new Error(`${name}: compression method ${method}`);
      },
    });
    at += 46 + nameLength + skip;
  }
  return entries;
}
