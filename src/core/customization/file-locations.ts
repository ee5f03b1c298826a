/**
 * Where the customization files of each kind are read: the folders Copilot reads by default, and
 * those VS Code's settings add (`chat.promptFilesLocations: {".agents/prompts": true}`, in a
 * repository's .vscode/settings.json) or turn off (`".github/prompts": false`).
 */

export type CustomizationKind = "prompts" | "agents" | "instructions";

/** The settings VS Code reads for each kind (the agents' older one first named them chat modes). */
export const locationSettings: Readonly<Record<CustomizationKind, readonly string[]>> = {
  prompts: ["chat.promptFilesLocations"],
  agents: ["chat.agentFilesLocations", "chat.modeFilesLocations"],
  instructions: ["chat.instructionsFilesLocations"],
};

/**
 * A folder of a kind's files: relative to each workspace folder, or absolute (`~` is the home
 * folder). `nested`: its subfolders are read too (instructions); `anyMarkdown`: any Markdown file
 * but its README is one (`.github/agents`).
 */
export interface FileLocation {
  readonly path: string;
  readonly kind: CustomizationKind;
  readonly nested?: true;
  readonly anyMarkdown?: true;
  /** An absolute path (or under `~`): read once, as the user's own folder is. */
  readonly absolute?: true;
}

/** Copilot's own folders in a workspace folder, as VS Code reads them. */
export const defaultLocations: readonly FileLocation[] = [
  { path: ".github/prompts", kind: "prompts" },
  { path: ".github/agents", kind: "agents", anyMarkdown: true },
  { path: ".github/chatmodes", kind: "agents" },
  { path: ".github/instructions", kind: "instructions", nested: true },
];

/**
 * The folders to read: the defaults a setting does not turn off, then the folders the settings
 * turn on. A setting's value is `{ "path": true | false }`, or a list of paths as older versions
 * wrote it; a path with glob characters is left out (VS Code deprecates them).
 */
export function fileLocations(settings: (key: string) => unknown): FileLocation[] {
  const out: FileLocation[] = [];
  const off = new Set<string>();
  const on: FileLocation[] = [];
  for (const [kind, keys] of Object.entries(locationSettings) as [CustomizationKind, readonly string[]][]) {
    for (const key of keys) {
      for (const [raw, enabled] of entries(settings(key))) {
        const path = cleanPath(raw);
        if (path === undefined) continue;
        if (!enabled) off.add(`${kind}:${path}`);
        else if (!on.some((l) => l.kind === kind && l.path === path)) on.push({ path, kind, ...(kind === "instructions" ? { nested: true as const } : {}), ...(isAbsolute(path) ? { absolute: true as const } : {}) });
      }
    }
  }
  for (const location of defaultLocations) if (!off.has(`${location.kind}:${location.path}`)) out.push(location);
  for (const location of on) if (!out.some((l) => l.kind === location.kind && l.path === location.path)) out.push(location);
  return out;
}

function entries(value: unknown): [string, boolean][] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string").map((v) => [v, true]);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).filter((e): e is [string, boolean] => typeof e[1] === "boolean");
}

/** The path with forward slashes, without `./` or a trailing slash; undefined for a glob or nothing. */
function cleanPath(raw: string): string | undefined {
  const path = raw.trim().replace(/\\/g, "/").replace(/^(?:\.\/)+/, "").replace(/(.)\/+$/, "$1");
  if (path === "" || path === "." || /[*?[\]{}]/.test(path)) return undefined;
  return path;
}

function isAbsolute(path: string): boolean {
  return path.startsWith("/") || path === "~" || path.startsWith("~/") || /^[A-Za-z]:\//.test(path);
}
