export interface BinaryHeader {
  format: "ELF" | "Mach-O" | "PE";
  /** Node's names (x64, arm64, ia32, arm, riscv64); each slice of a fat Mach-O file. */
  archs: string[];
}
/** The operating system whose loader reads each format, as Node names it. */
export const formatPlatform: Record<BinaryHeader["format"], string>;
/** What a native binary is built for, from its leading bytes; undefined when they are not one. */
export function readBinaryHeader(bytes: Uint8Array): BinaryHeader | undefined;
