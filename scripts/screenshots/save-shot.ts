import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";

/** A part of the page, in CSS pixels. */
export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Saves a screenshot of the page (or of `clip`) as a palette PNG: the workbench's flat colours and
 * its text fit in a few dozen with no visible loss, at a fraction of a true-colour PNG's size. The
 * README's images ship in every package, the universal one's 1 MiB budget included
 * (test/package/platform-packages.test.ts). Returns the file's size in bytes.
 */
export async function saveShot(page: Page, file: string, clip?: Clip): Promise<number> {
  const shot = await page.screenshot({ clip, animations: "disabled", caret: "hide" });
  const png = await sharp(shot).png({ palette: true, quality: 60, dither: 0, effort: 10, compressionLevel: 9 }).toBuffer();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, png);
  return statSync(file).size;
}
