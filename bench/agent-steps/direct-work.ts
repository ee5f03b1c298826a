// The baselines of the agent-steps benchmark: each tool's work done directly with node:fs, in the
// same extension host, with none of the loop around it (no stream, no validation, no transcript).
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** read_file's floor: the file's text. */
export async function readDirect(file: string): Promise<void> {
  await readFile(file, "utf8");
}

/**
 * grep_search's floor: a plain loop reading every file and, where the text matches, finding the
 * matching lines (case-insensitive, as grep_search matches). Returns the lines found.
 */
export async function grepDirect(root: string, files: readonly string[], query: { text: string; isRegexp: boolean }): Promise<number> {
  const pattern = query.isRegexp ? new RegExp(query.text, "i") : undefined;
  const needle = query.text.toLowerCase();
  const matches = (s: string) => (pattern ? pattern.test(s) : s.toLowerCase().includes(needle));
  let found = 0;
  for (const file of files) {
    const text = await readFile(join(root, file), "utf8");
    if (matches(text)) found += text.split("\n").filter(matches).length;
  }
  return found;
}

/** replace_string_in_file's floor: read, replace the one occurrence, write. */
export async function replaceDirect(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace(from, to));
}

/** list_dir's floor: the folder's entries, folders first, sorted. */
export async function listDirect(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
}

/** Runs `work` `runs` times, one after another; the milliseconds of each run. */
export async function timeRuns(runs: number, work: (run: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work(run);
    times.push(performance.now() - started);
  }
  return times;
}
