// npm run train-model, step 0: the application code of the training corpus (training-repos.ts),
// each repository's pinned commit fetched into .cache/train/repos/<owner>__<name>.git. Only that
// commit's objects come (a shallow fetch, without files over the corpus's size limit). Repositories already there are left alone.
//   npx tsx scripts/train/fetch-repos.ts [--dir .cache/train/repos] [--from DIR]
// --from reads the repositories where local copies are, instead of fetching from GitHub: DIR/<owner>+<name>/repo,
// DIR/<owner>__<name>.git or DIR/<owner>__<name> (any git directory or clone holding the commit).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { MAX_FILE_BYTES } from "./corpus-files";
import { repoGitDir, TRAINING_REPOS, type TrainingRepo } from "./training-repos";

const { values } = parseArgs({ options: { dir: { type: "string", default: ".cache/train/repos" }, from: { type: "string" } } });
const reposDir = path.resolve(values.dir!);
const say = (s: string) => process.stderr.write(`[fetch-repos] ${s}\n`);

function hasCommit(gitDir: string, commit: string): boolean {
  try {
    execFileSync("git", ["--git-dir", gitDir, "cat-file", "-e", `${commit}^{tree}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function sourceOf(repo: TrainingRepo): string {
  if (!values.from) return `https://github.com/${repo.name}.git`;
  const [owner, name] = repo.name.split("/");
  const local = [`${owner}+${name}/repo`, `${owner}__${name}.git`, `${owner}__${name}`].map((p) => path.resolve(values.from!, p)).find((p) => existsSync(p));
  if (!local) throw new Error(`${repo.name}: no copy under ${values.from}`);
  return local;
}

mkdirSync(reposDir, { recursive: true });
let failed = 0;
for (const repo of TRAINING_REPOS) {
  const gitDir = repoGitDir(reposDir, repo);
  if (hasCommit(gitDir, repo.commit)) continue;
  try {
    const source = sourceOf(repo);
    say(`${repo.name} ${repo.commit.slice(0, 12)} from ${source}`);
    rmSync(gitDir, { recursive: true, force: true });
    if (values.from) {
      // A local copy is read where it is (snapshots may lack their largest files, which a fetch refuses).
      symlinkSync(path.join(source, existsSync(path.join(source, ".git")) ? ".git" : ""), gitDir);
    } else {
      const git = (...args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { stdio: ["ignore", "inherit", "inherit"] });
      execFileSync("git", ["init", "--bare", "--quiet", gitDir]);
      // Files over the corpus's size limit are not needed: a partial fetch leaves their contents out.
      git("remote", "add", "origin", source);
      git("config", "remote.origin.promisor", "true");
      git("config", "extensions.partialClone", "origin");
      git("fetch", "--quiet", "--depth", "1", "--no-tags", `--filter=blob:limit=${MAX_FILE_BYTES}`, "origin", repo.commit);
    }
    if (!hasCommit(gitDir, repo.commit)) throw new Error("the commit did not arrive");
  } catch (error) {
    failed++;
    say(`${repo.name}: ${(error as Error).message.split("\n")[0]}`);
  }
}
if (failed > 0) {
  say(`${failed} of ${TRAINING_REPOS.length} repositories missing: the corpus will lack their code`);
  process.exit(1);
}
say(`${TRAINING_REPOS.length} repositories in ${reposDir}`);
