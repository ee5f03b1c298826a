// Code for the training corpus beyond the npm packages: permissively licensed projects pinned to a commit,
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
  /** A test suite, or a project whose tests are what it teaches: its test files are kept. */
  tests?: true;
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
  // The wider corpus (a larger model on a GPU): more TypeScript, JavaScript and Python, and the
  // languages written beside them; applications, libraries, test suites (`tests`), examples and docs.
  // Go
  { name: "gin-gonic/gin", commit: "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "spf13/cobra", commit: "adbc8813901bba65827259daa8e22ff94ec1f30e", license: "Apache-2.0", licenseFile: "LICENSE.txt", library: true },
  { name: "go-chi/chi", commit: "735ae2b87f8c733d616e809ae86e0985c1bc3350", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "labstack/echo", commit: "05489dc1730161df26b72d1ae2a3ba6fb8178fc7", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "charmbracelet/bubbletea", commit: "73b6d91ac1c3854dd4af046ab5f9e51d3b3b4290", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "uber-go/zap", commit: "5b81b37b81b8e2ed447a6f57991e372ee4fa5c8f", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "go-gorm/gorm", commit: "1d6ce99528060be18a42be09aca8d39efcb47f28", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "golang-migrate/migrate", commit: "18966c755f83de2b250dd8e766bad8b769cd0e25", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "pressly/goose", commit: "520411a16119bd3b332613d1ff8312c4cc249673", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "junegunn/fzf", commit: "956562daaa82ddf55ea8f7aeab56883377b742c6", license: "MIT", licenseFile: "LICENSE" },
  { name: "jesseduffield/lazygit", commit: "ea916395469808d37d726ae183fa40fd575a9d8a", license: "MIT", licenseFile: "LICENSE" },
  { name: "caddyserver/caddy", commit: "0cf03d32f7d99cf160d5375e8a40fbe3d910d515", license: "Apache-2.0", licenseFile: "LICENSE" },
  { name: "cli/cli", commit: "44ee17760709bedf1cad7e452e61751489b81a33", license: "MIT", licenseFile: "LICENSE" },
  { name: "rclone/rclone", commit: "64ab1ac32260238eefca3c61327f5faf1c6e106f", license: "MIT", licenseFile: "COPYING" },
  { name: "gohugoio/hugo", commit: "7b5199fdeff7d7682e9f979f468d55bc7b67b934", license: "Apache-2.0", licenseFile: "LICENSE" },
  { name: "sqlc-dev/sqlc", commit: "99a7d7d0c7b913ded6a60a9d038ece99dcdf7892", license: "MIT", licenseFile: "LICENSE" },
  { name: "pocketbase/pocketbase", commit: "5d217ddb50cb144d80a5d0b0bdf11b52b2c3e457", license: "MIT", licenseFile: "LICENSE.md" },
  { name: "restic/restic", commit: "a80be1478a4c537f8396e0db2b05120aa78f11e0", license: "BSD-2-Clause", licenseFile: "LICENSE" },
  { name: "dokku/dokku", commit: "33896f5d7efc3b03d0ea94934d8413cddbce07fd", license: "MIT", licenseFile: "LICENSE" },
  // Rust
  { name: "tokio-rs/tokio", commit: "ea91b33ca57ff0581b38e735cc108f831bccbdaa", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "tokio-rs/axum", commit: "3d78036dcac289d6c1d54934708acb6a5bd73686", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "clap-rs/clap", commit: "6982fb1c98c7247e38a6d4f04191b94e30497e7b", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT", library: true },
  { name: "serde-rs/serde", commit: "1023d077510b4aef36a41ef56fdb7798568a2654", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT", library: true },
  { name: "hyperium/hyper", commit: "8fcaf1a62787b824fdd7b95a3e7c9ea81acd3449", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "launchbadge/sqlx", commit: "9d6bf6629f172d32fe1e6cafe8071439d213fc75", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT", library: true },
  { name: "tauri-apps/tauri", commit: "a8105eccb2122f003b4a36bbfb747998f53c5f10", license: "MIT OR Apache-2.0", licenseFile: "LICENSE_MIT", library: true },
  { name: "BurntSushi/ripgrep", commit: "3fce3b5bb0236da2df6d99672afb8a719642eca7", license: "MIT OR Unlicense", licenseFile: "LICENSE-MIT", tests: true },
  { name: "sharkdp/bat", commit: "2ba8db9c14e5794572f5ea338c2b90404c9769cb", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT" },
  { name: "sharkdp/fd", commit: "ee20f426ddf338ac7ead5c5f00ea49258005caaf", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT" },
  { name: "alacritty/alacritty", commit: "bdb72b32eeb074e3a0b8559d8ccac458237474a3", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT" },
  { name: "nushell/nushell", commit: "3e1172d43cabb34afb798dfc9d8724839e18fe85", license: "MIT", licenseFile: "LICENSE" },
  { name: "starship/starship", commit: "6f33dcec91b758ccbae4ed850eaa6feabff798f9", license: "ISC", licenseFile: "LICENSE" },
  { name: "ajeetdsouza/zoxide", commit: "e3ef7c9b41e38aff62dd68fcb920a9765e46aa71", license: "MIT", licenseFile: "LICENSE" },
  { name: "rust-lang/rustlings", commit: "5e7a5d172106e75a50039a1846e38eca9f812bc1", license: "MIT", licenseFile: "LICENSE" },
  { name: "rust-lang/book", commit: "917544888a55e4da7109bdba8c88c893c0da70f4", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT" },
  { name: "rust-lang/rust-by-example", commit: "898f0ac1479223d332309e0fce88d44b39927d28", license: "MIT OR Apache-2.0", licenseFile: "LICENSE-MIT" },
  // Java
  { name: "google/gson", commit: "9835b6f90192f79cdf5300c528fc6212455fb6c1", license: "Apache-2.0", licenseFile: "LICENSE", library: true },
  { name: "square/retrofit", commit: "0b118105fe8436791436b8bc9c95b9aa2cfd3bdd", license: "Apache-2.0", licenseFile: "LICENSE.txt", roots: ["retrofit/", "retrofit-adapters/", "retrofit-converters/", "retrofit-mock/", "samples/"], library: true },
  { name: "apache/commons-lang", commit: "d15939ef46f0bd4144994df8be95cf5a7f91eb52", license: "Apache-2.0", licenseFile: "LICENSE.txt", library: true },
  { name: "ReactiveX/RxJava", commit: "1eca072ba9980f3cbc5cfae68490cb5c3508f632", license: "Apache-2.0", licenseFile: "LICENSE", library: true },
  { name: "dropwizard/dropwizard", commit: "86b652321ef9d20a9d2c958e4938e25008e2aacb", license: "Apache-2.0", licenseFile: "LICENSE", library: true },
  { name: "spring-projects/spring-petclinic", commit: "edf4db28affcc4741c79850a3d95bc3f177b5ff9", license: "Apache-2.0", licenseFile: "LICENSE.txt", tests: true },
  { name: "jhipster/jhipster-sample-app", commit: "f8da577c944ecc4db46fc961a1ba022d5bbf8964", license: "Apache-2.0", licenseFile: "LICENSE.txt" },
  { name: "iluwatar/java-design-patterns", commit: "22a34127d0b08449c24cf7e230c04a097deca2f3", license: "MIT", licenseFile: "LICENSE.md" },
  { name: "TheAlgorithms/Java", commit: "9d05db2d14702454a418ff31158905e502df83e0", license: "MIT", licenseFile: "LICENSE" },
  // C#
  { name: "JamesNK/Newtonsoft.Json", commit: "09bb545d72969ad7fb4ea07db0d5c34f4fc07877", license: "MIT", licenseFile: "LICENSE.md", library: true },
  { name: "App-vNext/Polly", commit: "173d6d1d2e28a4697f1ac1d22da68f77ff19a0c9", license: "BSD-3-Clause", licenseFile: "LICENSE", library: true },
  { name: "DapperLib/Dapper", commit: "6d48ef664acc7298c649e2d449d903b3360d5a90", license: "Apache-2.0", licenseFile: "License.txt", library: true },
  { name: "serilog/serilog", commit: "60935b4d7abad71cf6157b45a10f5c3c65ead527", license: "Apache-2.0", licenseFile: "LICENSE", library: true },
  { name: "FluentValidation/FluentValidation", commit: "ea299fe59719950018fa240dab86da414190d7f4", license: "Apache-2.0", licenseFile: "License.txt", library: true },
  { name: "dotnet/eShop", commit: "5624ad564d1602a927879df32a79b94522eb6101", license: "MIT", licenseFile: "LICENSE" },
  { name: "dotnet-architecture/eShopOnWeb", commit: "2414014bfa0f4d2021b5bc9061429a98d232f440", license: "MIT", licenseFile: "LICENSE", tests: true },
  { name: "jasontaylordev/CleanArchitecture", commit: "10f1a45df0d86bb87b083f3a0e249d755093fbbd", license: "MIT", licenseFile: "LICENSE" },
  { name: "ardalis/CleanArchitecture", commit: "4f80d58ddb3eb74c6ec8fcad0394e811d01106f5", license: "MIT", licenseFile: "LICENSE" },
  // shell
  { name: "ohmyzsh/ohmyzsh", commit: "830a5bcfd29fd577fdcd5f3b8e98cbaf973421fa", license: "MIT", licenseFile: "LICENSE.txt" },
  { name: "nvm-sh/nvm", commit: "b17550a0b9ab691439815dfccc8b73e3a59fa103", license: "MIT", licenseFile: "LICENSE.md" },
  { name: "bats-core/bats-core", commit: "d22e41faad59f5fd942a88c992b4913a27a460c4", license: "MIT", licenseFile: "LICENSE.md", tests: true },
  { name: "rbenv/rbenv", commit: "23c3041695feb811c18dbb270096c7956f7c377d", license: "MIT", licenseFile: "LICENSE" },
  { name: "pyenv/pyenv", commit: "bec9a562a59e48a730fe3320fe90c6999c82886c", license: "MIT", licenseFile: "LICENSE" },
  { name: "tj/n", commit: "f52d2172f12cd76f0efe9524690723f52ab74f40", license: "MIT", licenseFile: "LICENSE" },
  { name: "dylanaraps/pure-bash-bible", commit: "8c19d0b482b04d8d50fb72b4c5148b41ce605c6d", license: "MIT", licenseFile: "LICENSE.md" },
  { name: "docker-library/postgres", commit: "6edb0a8c4def40c371514b34aef9037ec82d9110", license: "MIT", licenseFile: "LICENSE" },
  // SQL
  { name: "dbt-labs/jaffle_shop", commit: "b0b77aac70f490770a1e77c02bb0a2b8771d3203", license: "Apache-2.0", licenseFile: "LICENSE" },
  { name: "dbt-labs/dbt-utils", commit: "700764ce230b2fb775b5338b6bc77a72233ea34c", license: "Apache-2.0", licenseFile: "LICENSE", library: true },
  { name: "dbt-labs/dbt-core", commit: "43aa6e8a621e703984cfcb84259a81be32518878", license: "Apache-2.0", licenseFile: "LICENSE" },
  { name: "graphile/worker", commit: "abfb4cff30747ad423046d117dfb88470f03ae00", license: "MIT", licenseFile: "LICENSE.md", library: true },
  { name: "jOOQ/sakila", commit: "e089a5b1ec9af0df7a9c6a5d47d49fa1736a4e84", license: "BSD-2-Clause", licenseFile: "LICENSE" },
  // HTML/CSS
  { name: "h5bp/html5-boilerplate", commit: "b7e31d67f4cf83e23d51f4decc73618bf8bd77ba", license: "MIT", licenseFile: "LICENSE.txt" },
  { name: "jgthms/bulma", commit: "68ff0ad283e60b918f19d9abcc5218fa6d255f65", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "picocss/pico", commit: "1039a4788d6abc368d5485ae6bac84a8f0e3096f", license: "MIT", licenseFile: "LICENSE.md", roots: ["scss/"], library: true },
  { name: "necolas/normalize.css", commit: "fc091cce1534909334c1911709a39c22d406977b", license: "MIT", licenseFile: "LICENSE.md", library: true },
  { name: "tailwindlabs/tailwindcss", commit: "90f8ff41c8e2a4d17bc76921e23e9d672123da76", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "primer/css", commit: "0875df4f25373511874f5bfcd117a1bc2006762f", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "foundation/foundation-sites", commit: "337be7a8d9d20d28f5d27d2d98131a6d3772506c", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "bradtraversy/50projects50days", commit: "c92b0bc3a87fc95d44b89552b7b6a2eeb36ca481", license: "MIT", licenseFile: "LICENSE" },
  { name: "StartBootstrap/startbootstrap-sb-admin-2", commit: "f0309881ef82794a1bd6257cd321801bc38a0f3d", license: "MIT", licenseFile: "LICENSE" },
  { name: "mdn/learning-area", commit: "ca1ff0bd06e12b96a6742ffdf040bb22966e5a5e", license: "CC0-1.0", licenseFile: "LICENSE" },
  { name: "jekyll/minima", commit: "b3385fe64e9d79e75260668cad1852a3913b1829", license: "MIT", licenseFile: "LICENSE.txt" },
  { name: "tastejs/todomvc", commit: "ff43b02e59dfa604386bb382034b2cd07c2bcd8a", license: "MIT", licenseFile: "license.md" },
  // TypeScript / JavaScript
  { name: "typeorm/typeorm", commit: "281bfba42a5813b106bcf5ba79bc7f7251bd1e73", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "trpc/trpc", commit: "340811ba5320637fbaf48fccf3dbfdd258bd34db", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "mermaid-js/mermaid", commit: "df032c942c32f805a7f4cd1cf30a565e610bc4f1", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "sveltejs/kit", commit: "aa810a04146b98b77592f7b384347140d29ff599", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "vitejs/vite", commit: "a98c8d95d552c6fa98ab66fb810f5b39ad5abf49", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "vuejs/core", commit: "e2bede96134f757aad5c5b33ac9be055022dbfc8", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "reduxjs/redux-toolkit", commit: "74200d87c27ca2b1c0915b2fbb4c44dd7494c2aa", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "TanStack/query", commit: "40321a0b1b3bdd0afa11f0e439642ab84cdf6afe", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "pmndrs/zustand", commit: "f094eebe9bd3b4b0d77b997f69ab1d273f69a877", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "withastro/astro", commit: "99d3d3dbbfa4fd7b128a056337f1a719437a7377", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "koajs/koa", commit: "e0ba8ef39d27fe5dae5492f9fe753d155124f994", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "jestjs/jest", commit: "52db46e50404c993d3f10dd1481e861cc04ae22e", license: "MIT", licenseFile: "LICENSE", library: true, tests: true },
  { name: "cypress-io/cypress-example-kitchensink", commit: "ae5284ece83008b5f9ac1982201d38a82c3a1420", license: "MIT", licenseFile: "LICENSE", tests: true },
  { name: "medusajs/medusa", commit: "59e6747800133e091d20c2c167f600981abc5c0d", license: "MIT", licenseFile: "LICENSE" },
  { name: "payloadcms/payload", commit: "db7543c2121f0b672e33436447122b5e09ea4f2b", license: "MIT", licenseFile: "LICENSE.md" },
  // Python
  { name: "pydantic/pydantic", commit: "2151025aa51263f3016502b00010b78e4481eaa1", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "sqlalchemy/sqlalchemy", commit: "f35da7e2b9349a08b8de1f6bd3b07c8bf8616790", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "celery/celery", commit: "5dc781f0bd5f36186bfcc74e0a4f9f654452c69b", license: "BSD-3-Clause", licenseFile: "LICENSE", library: true },
  { name: "aio-libs/aiohttp", commit: "495e778360d1924da63e16dba0f0d76baf56a56a", license: "Apache-2.0", licenseFile: "LICENSE.txt", library: true },
  { name: "marshmallow-code/marshmallow", commit: "341b927f219205704728c05cd61f04d7e9727523", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "Textualize/rich", commit: "42899d8a0a96b121a514516f4be9db44ff7aeaf3", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "Textualize/textual", commit: "1d99508b928a771b51e1a527319c6b87dcff9e05", license: "MIT", licenseFile: "LICENSE", library: true },
  { name: "scrapy/scrapy", commit: "11079cb1c85b9e75a39a7269943c69d1a975d485", license: "BSD-3-Clause", licenseFile: "LICENSE", library: true },
  { name: "pytest-dev/pytest", commit: "df87db7b0462fb764ef73fa00561adf8ad047572", license: "MIT", licenseFile: "LICENSE", library: true, tests: true },
  { name: "psf/black", commit: "8947c48ef2077c3a301b03c1e814dc2e3f78436e", license: "MIT", licenseFile: "LICENSE" },
  { name: "python-poetry/poetry", commit: "f46702336862f30050d5c641d5ed6f7568ded793", license: "MIT", licenseFile: "LICENSE" },
  { name: "pypa/pip", commit: "6d309205789d368b2749d93fd6193d584811efd5", license: "MIT", licenseFile: "LICENSE.txt" },
  { name: "getredash/redash", commit: "ca79fe988d81cdac9675b412f3dfcab107bc1fbc", license: "BSD-2-Clause", licenseFile: "LICENSE" },
  { name: "wagtail/wagtail", commit: "c2ae43b9265d085c95142cd1a1f8563ad2eb4de9", license: "BSD-3-Clause", licenseFile: "LICENSE" },
  { name: "localstack/localstack", commit: "8b9a79f05846835cf4dff63ab7eefdde9df83783", license: "Apache-2.0", licenseFile: "LICENSE.txt" },
  { name: "TheAlgorithms/Python", commit: "f5988cc09713315817df6a7e327e258013a94440", license: "MIT", licenseFile: "LICENSE.md" },
];

/** Where fetch-repos.ts keeps a repository's objects. */
export const repoGitDir = (reposDir: string, repo: TrainingRepo) => path.join(reposDir, `${repo.name.replace("/", "__")}.git`);

/** Fixtures, vendored, built, minified and generated code, translations: not the project's own writing. */
const NOT_OWN_CODE =
  /(^|\/)(__mocks__|__snapshots__|fixtures?|testdata|vendor|third_party|external|flow-typed|dist|build|node_modules|locales?|i18n|translations|generated|__generated__)\/|\.(min|d|generated)\.[a-z]+$|(^|\/)setup\.py$/;
/** Tests: left out but where a repository is kept for them (`tests`). */
const TESTS = /(^|\/)(tests?|spec|specs|__tests__|e2e|testing)\/|(^|\/)[\w.]*Tests?\/|\.(spec|test)\.[a-z]+$|_test\.go$|(^|\/)(test_[^/]*|conftest)\.py$/;
/** Docs translated into other languages (a folder named by its locale): the English is kept. */
const TRANSLATED = /(^|\/)(ar|de|es|fa|fr|id|it|ja|ko|nl|pl|pt|ru|tr|uk|vi|zh)([-_][A-Za-z]{2,4})?\/(.*\/)?[^/]*\.(md|markdown|html?)$/;
/** Migrations: a framework writes Python and JavaScript ones; SQL ones are written by hand. */
const GENERATED_MIGRATIONS = /(^|\/)migrations\/.*\.(py|js|ts)$/;
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
      if (type !== "blob" || !file || !Number.isFinite(Number(size)) || !wanted(file, Number(size))) return [];
      if (NOT_OWN_CODE.test(file) || TRANSLATED.test(file) || GENERATED_MIGRATIONS.test(file) || (!repo.tests && TESTS.test(file))) return [];
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
