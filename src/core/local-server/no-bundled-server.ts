/** The platforms whose package carries the local server (`npm run package -- --all`). */
export const platformsWithServer = ["linux-x64", "linux-arm64", "darwin-arm64", "win32-x64", "win32-arm64"] as const;

/** Why Start Local Server cannot run one from the universal package, and what to do instead. */
export const noBundledServerMessage =
  "this Wisp package has no local server bundled (it is the universal package, for platforms without a package of their own and for remote setups), so no engine runs here. " +
  "Point wisp.baseUrl at an OpenAI-compatible server that runs elsewhere, or set wisp.localServer.command to a wisp-server executable on this machine. " +
  `The packages with the server are for ${platformsWithServer.join(", ")}.`;

/** The status bar tooltip's line for a package without the server. */
export const noBundledServerLine = "Local server: none bundled in this package (universal): wisp.baseUrl points at a server elsewhere";
