/**
 * Which lines a review covers (a diff's hunks on their new side, or a selection), how they are
 * shown to the model (numbered as in the file, secrets masked), and which of the model's findings
 * can be placed: those inside one reviewed block of a reviewed file, at lines that exist.
 */
import { shareBudget } from "../scm/diff-budget";
import { fileLineMasker } from "../scm/mask-diff-secrets";
import type { Finding } from "./findings";

/** One contiguous block of reviewed lines: `lines[i]` is line `start + i` of the file (1-based). */
export interface ReviewedBlock {
  readonly start: number;
  readonly lines: readonly string[];
  /**
   * Lines of the diff shown inside the block, for the model only: `+`/` ` lines numbered, `-` lines
   * not; masked once fitListing has shown them (`lines` stay as the file has them).
   */
  readonly shown: readonly { readonly mark: "+" | "-" | " "; readonly text: string }[];
}

export interface ReviewedFile {
  /** The path as the model sees it. */
  readonly path: string;
  readonly blocks: readonly ReviewedBlock[];
}

/** The reviewed blocks of one file's diff section: each hunk's new side, with removed lines shown between. */
export function blocksOfDiff(section: string): ReviewedBlock[] {
  const blocks: ReviewedBlock[] = [];
  let current: { start: number; lines: string[]; shown: ReviewedBlock["shown"][number][] } | undefined;
  // A CRLF file's diff lines end in \r: the editor's lines do not.
  for (const line of section.split("\n").map((l) => l.replace(/\r$/, ""))) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      if (current && current.shown.length > 0) blocks.push(current);
      current = { start: Number(hunk[1]), lines: [], shown: [] };
      continue;
    }
    if (current === undefined) continue;
    const mark = line[0];
    if (mark === "+" || mark === " ") {
      current.lines.push(line.slice(1));
      current.shown.push({ mark, text: line.slice(1) });
    } else if (mark === "-") current.shown.push({ mark, text: line.slice(1) });
  }
  if (current && current.shown.length > 0) blocks.push(current);
  // A hunk that only removes lines has nothing on the new side to comment on.
  return blocks.filter((b) => b.lines.length > 0).map((b) => (b.start === 0 ? { ...b, start: 1 } : b));
}

/** A selection (or a whole new file) as one block. */
export function blockOfLines(start: number, lines: readonly string[]): ReviewedBlock {
  return { start, lines, shown: lines.map((text) => ({ mark: " ", text })) };
}

/** `file` with what it shows the model masked as a diff of it is for a commit message (key blocks whole). */
function masked(file: ReviewedFile): ReviewedFile {
  const maskLine = fileLineMasker(file.path);
  return { ...file, blocks: file.blocks.map((block) => ({ ...block, shown: block.shown.map(({ mark, text }) => ({ mark, text: maskLine(text) })) })) };
}

/** The numbered listing of a file's blocks, for the model. */
function listing(file: ReviewedFile): string[] {
  const out = [`File: ${file.path}`];
  for (const block of file.blocks) {
    let number = block.start;
    for (const { mark, text } of block.shown) out.push(mark === "-" ? `      - ${text}` : `${String(number++).padStart(5)} ${mark} ${text}`);
    out.push("      …");
  }
  return out;
}

/**
 * The listing of every file within about `budgetChars` (shared as with diffs: small files whole,
 * large ones cut), secrets masked, and the files as far as they are shown: a finding can be
 * placed only there.
 */
export function fitListing(reviewed: readonly ReviewedFile[], budgetChars: number): { text: string; files: ReviewedFile[] } {
  // Masked whole before any cut: a file cut inside a key block still shows it masked.
  const files = reviewed.map(masked);
  const listings = files.map(listing);
  const shares = shareBudget(listings.map((l) => l.join("\n").length + 1), budgetChars);
  const kept: ReviewedFile[] = [];
  const texts: string[] = [];
  files.forEach((file, i) => {
    if (listings[i]!.join("\n").length + 1 <= shares[i]!) {
      kept.push(file);
      texts.push(listings[i]!.join("\n"));
      return;
    }
    const cut = cutFile(file, shares[i]!);
    if (cut.blocks.length === 0) return;
    kept.push(cut);
    texts.push(`${listing(cut).join("\n")}\n[… the rest of ${file.path} left out to fit the request]`);
  });
  return { text: texts.join("\n\n"), files: kept };
}

/** The file's first blocks and lines that fit in `chars` characters of listing. */
function cutFile(file: ReviewedFile, chars: number): ReviewedFile {
  const blocks: ReviewedBlock[] = [];
  let used = `File: ${file.path}\n`.length;
  for (const block of file.blocks) {
    const shown: ReviewedBlock["shown"][number][] = [];
    let numbered = 0;
    for (const entry of block.shown) {
      used += entry.text.length + 10;
      if (used > chars) break;
      shown.push(entry);
      if (entry.mark !== "-") numbered++;
    }
    if (numbered > 0) blocks.push({ start: block.start, lines: block.lines.slice(0, numbered), shown });
    if (used > chars) break;
  }
  return { path: file.path, blocks };
}

/** A finding at its place: the file it is in and the reviewed lines it covers. */
export interface PlacedFinding {
  readonly finding: Finding;
  readonly file: ReviewedFile;
  /** The text of lines line..endLine as reviewed: Apply Fix checks the file still has them. */
  readonly original: readonly string[];
  /** The same lines as the model saw them (secrets masked). */
  readonly sent: readonly string[];
}

export type DropReason = "outside" | "noSuchLine";

export interface Placement {
  readonly placed: readonly PlacedFinding[];
  readonly dropped: Readonly<Record<DropReason, number>>;
}

/** Paths compared the way a model may write them: `./src/a.ts`, `b/src/a.ts` and `src/a.ts` alike. */
function samePath(named: string, path: string): boolean {
  const clean = (p: string) => p.trim().replace(/\\/g, "/").replace(/^\.\//, "");
  const a = clean(named);
  const b = clean(path);
  return a === b || a.replace(/^[ab]\//, "") === b;
}

/**
 * The findings that fit inside one reviewed block of a reviewed file; `lineCount` says how many
 * lines each file has now (a line past it does not exist).
 */
export function placeFindings(findings: readonly Finding[], files: readonly ReviewedFile[], lineCount: (file: ReviewedFile) => number): Placement {
  const placed: PlacedFinding[] = [];
  const dropped: Record<DropReason, number> = { outside: 0, noSuchLine: 0 };
  for (const finding of findings) {
    const file = files.find((f) => samePath(finding.file, f.path));
    if (file === undefined) {
      dropped.outside++;
      continue;
    }
    if (finding.endLine > lineCount(file)) {
      dropped.noSuchLine++;
      continue;
    }
    const block = file.blocks.find((b) => finding.line >= b.start && finding.endLine < b.start + b.lines.length);
    if (block === undefined) {
      dropped.outside++;
      continue;
    }
    const from = finding.line - block.start;
    const to = finding.endLine - block.start + 1;
    const sent = block.shown.filter((entry) => entry.mark !== "-").map((entry) => entry.text);
    placed.push({ finding, file, original: block.lines.slice(from, to), sent: sent.slice(from, to) });
  }
  return { placed, dropped };
}
