import type SharpModule from "sharp";
import type { RgbImage } from "./diffusion-pipeline";
import type { ImageExtension } from "./image-limits";

/** The OpenAI `output_format` name of an extension. */
export function outputFormat(extension: ImageExtension): "png" | "jpeg" | "webp" {
  return extension === "jpg" ? "jpeg" : extension;
}

/**
 * Encodes raw RGB pixels with sharp (libvips works off the event loop). `quality` (1-100) is that of
 * JPEG and WebP; PNG is lossless.
 */
export async function encodeImage(image: RgbImage, extension: ImageExtension, quality = 90): Promise<Buffer> {
  // Loaded on first use: sharp loads its native binary on import, and the server checks first
  // that this platform's is there (native-engines.ts) to say so in words.
  const sharp = ((await import("sharp")) as { default: typeof SharpModule }).default;
  const raw = sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } });
  switch (outputFormat(extension)) {
    case "png":
      return raw.png().toBuffer();
    case "jpeg":
      return raw.jpeg({ quality }).toBuffer();
    case "webp":
      return raw.webp({ quality }).toBuffer();
  }
}
