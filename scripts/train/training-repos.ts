// Application code for the training corpus: permissively licensed projects pinned to a commit,
// read straight out of their git objects (`npm run train-model` fetches them into .cache/train/repos
// with scripts/train/fetch-repos.ts). None of them is a dependency of this repository, one of the
// completion bench's projects (bench/fim-quality/third_party) or one kept for independent evaluation.
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";

export interface TrainingRepo {
  /** owner/name on GitHub. */
  name: string;
  commit: string;
  /** SPDX id of the licence file at the repository's root. */
  license: string;
  licenseFile: string;
  /** Only paths under these folders: the project's own code, not what it vendors or generates. */
  roots?: string[];
  /** A library's code goes to the libraries' half of the examples (with the npm packages'), not the applications'. */
  library?: true;
}

export const TRAINING_REPOS: readonly TrainingRepo[] = [
  { name: "excalidraw/excalidraw", commit: "4872083c044491b6d5c96ae134a75464f96d6831", license: "MIT", licenseFile: "LICENSE", roots: ["packages/", "excalidraw-app/"] },
  { name: "hoppscotch/hoppscotch", commit: "afc2cf181c16e56647b099e5d18cfe55710c6cdd", license: "MIT", licenseFile: "LICENSE", roots: ["packages/"] },
  { name: "Kong/insomnia", commit: "078bb9b99770f2d1715864373e3dca0e762e5224", license: "Apache-2.0", licenseFile: "LICENSE", roots: ["packages/"] },
  { name: "ether/etherpad-lite", commit: "b827f5b3d93bc79fc9014c7d9f8b900956b8af65", license: "Apache-2.0", licenseFile: "LICENSE", roots: ["src/", "bin/"] },
  { name: "hexojs/hexo", commit: "a16a7e609f8d3786d21d65e98ffcf602eecbc0f6", license: "MIT", licenseFile: "LICENSE", roots: ["lib/"] },
  { name: "withspectrum/spectrum", commit: "e8ebdcbba829ce067dd4e4b21c631b093299ef07", license: "BSD-3-Clause", licenseFile: "LICENSE" },
  { name: "knex/knex", commit: "e25d54bcb707714a17f5a5744eba5c4246bb4d1d", license: "MIT", licenseFile: "LICENSE", roots: ["lib/", "bin/", "scripts/"] },
  { name: "wekan/wekan", commit: "f5cc8e37319469dd6a4752e160540213a2094aa4", license: "MIT", licenseFile: "LICENSE", roots: ["client/", "server/", "models/", "config/"] },
  { name: "mozilla/pdf.js", commit: "0f26334f9d6f96119f6e5164fb65832fbbde7344", license: "Apache-2.0", licenseFile: "LICENSE", roots: ["src/", "web/"] },
  { name: "saleor/saleor", commit: "723cd4eba87dfc72822ade45dc08a3caa548428d", license: "BSD-3-Clause", licenseFile: "LICENSE", roots: ["saleor/"] },
  { name: "netbox-community/netbox", commit: "43fe81f9e833228c9869f7ddadb67e6c5f145060", license: "Apache-2.0", licenseFile: "LICENSE.txt", roots: ["netbox/"] },
  { name: "mitmproxy/mitmproxy", commit: "8fc25b3045934777b0796d8ec7958bbc257d7bb5", license: "MIT", licenseFile: "LICENSE", roots: ["mitmproxy/", "examples/"] },
  // Libraries, written for other programmers to read and extend (the bench's Leaflet and httpx are of this kind).
  { name: "chartjs/Chart.js", commit: "cb02e1d207bd4c4c40b20c259017f85f26f1e30a", license: "MIT", licenseFile: "LICENSE.md", roots: ["src/"], library: true },
  { name: "openlayers/openlayers", commit: "58a284c3469e6d5601a8ff95f5bb60cf877c0244", license: "BSD-2-Clause", licenseFile: "LICENSE.md", roots: ["src/ol/"], library: true },
  { name: "jquery/jquery", commit: "51eb576cca6ffce252dc152bf8e91d5230a0d887", license: "MIT", licenseFile: "LICENSE.txt", roots: ["src/"], library: true },
  { name: "Turfjs/turf", commit: "98b9a4ed270148fda73dda48b7fd1f7c8b6f88e0", license: "MIT", licenseFile: "LICENSE", roots: ["packages/"], library: true },
  { name: "psf/requests", commit: "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e", license: "Apache-2.0", licenseFile: "LICENSE", roots: ["src/requests/"], library: true },
  { name: "urllib3/urllib3", commit: "6a8536b6e1b0cbe69ae801337c599951e527ae29", license: "MIT", licenseFile: "LICENSE.txt", roots: ["src/urllib3/"], library: true },
];

/** Where fetch-repos.ts keeps a repository's objects. */
export const repoGitDir = (reposDir: string, repo: TrainingRepo) => path.join(reposDir, `${repo.name.replace("/", "__")}.git`);

/** Tests, fixtures, migrations, vendored, built, minified and generated code: not the project's own writing. */
const NOT_OWN_CODE =
  /(^|\/)(tests?|spec|specs|__tests__|__mocks__|__snapshots__|e2e|fixtures?|migrations|vendor|third_party|external|flow-typed|dist|build|node_modules|locales?|i18n|generated|__generated__)\/|\.(min|spec|test|d|generated)\.[a-z]+$|(^|\/)(test_[^/]*|conftest|setup)\.py$/;
/** Each repository gives at most this much text, spread evenly over its files, so no single project dominates. */
const MAX_REPO_BYTES = 4 * 2 ** 20;

export interface RepoFile {
  repo: TrainingRepo;
  path: string;
  text: string;
}

/**
 * The files of one repository at its pinned commit that `wanted` accepts (by path and size), read in
 * one `git cat-file --batch`. Nothing when the commit is not there (fetch-repos.ts not run).
 */
export function repoFiles(gitDir: string, repo: TrainingRepo, wanted: (file: string, size: number) => boolean): RepoFile[] {
  let tree: string;
  try {
    tree = execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", "-l", repo.commit], { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return [];
  }
  const entries = tree
    .split("\n")
    .flatMap((line) => {
      const [meta, file] = line.split("\t");
      const [, type, object, size] = meta?.split(/\s+/) ?? [];
      // A snapshot may lack its largest files: git cannot tell their size, and they are left out.
      if (type !== "blob" || !file || !Number.isFinite(Number(size)) || !wanted(file, Number(size)) || NOT_OWN_CODE.test(file)) return [];
      if (repo.roots && !repo.roots.some((root) => file.startsWith(root))) return [];
      return [{ file, object: object!, size: Number(size) }];
    })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const step = Math.max(1, total / MAX_REPO_BYTES);
  // The first file of each step's worth: every file when they fit.
  const picked = entries.filter((_, i) => Math.floor(i / step) !== Math.floor((i - 1) / step));
  if (picked.length === 0) return [];
  const batch = spawnSync("git", ["--git-dir", gitDir, "cat-file", "--batch"], { input: picked.map((e) => e.object).join("\n") + "\n", maxBuffer: 1 << 30 });
  const out = batch.stdout;
  const files: RepoFile[] = [];
  let at = 0;
  for (const entry of picked) {
    const headerEnd = out.indexOf(10, at);
    const size = Number(out.subarray(at, headerEnd).toString("latin1").split(" ")[2]);
    files.push({ repo, path: entry.file, text: out.subarray(headerEnd + 1, headerEnd + 1 + size).toString("utf8") });
    at = headerEnd + 1 + size + 1;
  }
  return files;
}
