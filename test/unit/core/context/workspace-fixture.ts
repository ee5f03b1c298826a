import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { Bm25Index } from "../../../../src/core/context/bm25-index";
import { chunkText } from "../../../../src/core/context/chunker";

export const shopRoot = join(import.meta.dirname, "../../../fixtures/workspace-shop");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The fixture shop indexed the way the extension indexes a workspace. */
export function shopIndex(): Bm25Index {
  const index = new Bm25Index();
  for (const file of walk(shopRoot)) {
    const path = relative(shopRoot, file).split("\\").join("/");
    index.setFile(path, chunkText(path, readFileSync(file, "utf8")));
  }
  return index;
}
