import type { ImageExtension } from "../api/images";

/**
 * The kind of image `bytes` hold, by the signature every such file starts with, or undefined for
 * anything else: an answer whose base64 decodes to something that is no image (cut, or another
 * file) is an error to show, not a broken file to save.
 */
export function imageKindOf(bytes: Uint8Array): ImageExtension | undefined {
  const starts = (offset: number, signature: readonly number[]) => signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts(0, [0xff, 0xd8, 0xff])) return "jpg";
  // RIFF, the size, then WEBP.
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return "webp";
  return undefined;
}
