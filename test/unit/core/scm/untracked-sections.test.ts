import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { lstat, readFile } from "node:fs/promises";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { untrackedSections, untrackedLimits, type UntrackedIo } from "../../../../src/core/scm/untracked-sections";

/**
 * The file system as the extension reads it, in a process allowed `descriptors` open files at
 * once (ulimit -n; the editor's own files take many): a read past that fails with EMFILE, as
 * the system's does.
 */
function diskIo(root: string, descriptors: number): UntrackedIo & { peak: number } {
  let open = 0;
  const io = {
    peak: 0,
    inspect: async (path: string) => {
      const info = await lstat(join(root, path));
      return info.isSymbolicLink() ? { kind: "link" as const, target: "elsewhere" } : info.isFile() ? { kind: "file" as const, size: info.size } : { kind: "none" as const };
    },
    read: async (path: string) => {
      if (open >= descriptors) throw Object.assign(new Error("EMFILE: too many open files"), { code: "EMFILE" });
      open++;
      io.peak = Math.max(io.peak, open);
      try {
        const bytes = await readFile(join(root, path));
        return bytes.subarray(0, 8192).includes(0) ? { kind: "binary" as const } : { kind: "text" as const, text: bytes.toString("utf8") };
      } finally {
        open--;
      }
    },
  };
  return io;
}

describe("core/scm: the untracked files Generate Commit Message sends with nothing staged (real git)", () => {
  let root: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const untracked = () => git("ls-files", "--others", "--exclude-standard").split("\n").filter(Boolean);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "wisp-untracked-"));
    git("init", "--quiet");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("3,000 new files in a process short of descriptors: every file is read and in the diff, none dropped", async () => {
    mkdirSync(join(root, "src"));
    for (let i = 0; i < 3000; i++) writeFileSync(join(root, "src", `f${i}.ts`), `export const v${i} = ${i};\n`);
    const paths = untracked();
    assert.equal(paths.length, 3000);
    const io = diskIo(root, 256);
    const sections = await untrackedSections(paths, io, () => false);
    const missing = paths.filter((p, i) => !sections[i]!.includes(`+export const v${p.match(/\d+/)![0]} =`));
    assert.deepEqual(missing, []);
    assert.ok(io.peak <= untrackedLimits.atOnce, `${io.peak} reads at once`);
  });

  it("past the total, the smallest files are read and the rest named with a note; sensitive, binary, large files and links as before", async () => {
    writeFileSync(join(root, "small.ts"), "a\n");
    writeFileSync(join(root, "medium.ts"), "m".repeat(600) + "\n");
    writeFileSync(join(root, "big.ts"), "b".repeat(900) + "\n");
    writeFileSync(join(root, "huge.log"), "h".repeat(5000));
    writeFileSync(join(root, "blob.bin"), Buffer.from([1, 0, 2]));
    writeFileSync(join(root, ".env"), "API_KEY=x\n");
    symlinkSync("/etc/passwd", join(root, "link"));
    const paths = untracked();
    const limits = { fileBytes: 2000, totalBytes: 1000, atOnce: 4 };
    const sections = Object.fromEntries((await untrackedSections(paths, diskIo(root, 64), (p) => p === ".env", limits)).map((s, i) => [paths[i]!, s]));
    assert.match(sections["small.ts"]!, /^\+a$/m);
    assert.match(sections["medium.ts"]!, /^\+m{600}$/m);
    assert.match(sections["big.ts"]!, /^\+\[a new file not read: the untracked files read came to/m);
    assert.match(sections["huge.log"]!, /^\+\[a new file over/m);
    assert.match(sections["blob.bin"]!, /^Binary files \/dev\/null and b\/blob.bin differ$/m);
    assert.doesNotMatch(sections[".env"]!, /API_KEY/);
    assert.match(sections[".env"]!, /^\+\+\+ b\/\.env$/m);
    assert.match(sections["link"]!, /^new file mode 120000$/m);
  });

  it("a file gone since the status is left out; one that fails otherwise is named with the reason", async () => {
    writeFileSync(join(root, "kept.ts"), "k\n");
    const io = diskIo(root, 64);
    const sections = await untrackedSections(["gone.ts", "kept.ts", "locked.ts"], { ...io, inspect: (p) => (p === "locked.ts" ? Promise.reject(Object.assign(new Error("denied"), { code: "EACCES" })) : io.inspect(p)) }, () => false);
    assert.deepEqual(sections.map((s) => (s === "" ? "" : s.split("\n")[0])), ["", "diff --git a/kept.ts b/kept.ts", "diff --git a/locked.ts b/locked.ts"]);
    assert.match(sections[2]!, /could not be read \(EACCES\)/);
  });
});
