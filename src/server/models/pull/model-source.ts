// What `models pull` fetches: a preset name, a hub path (owner/repo/file.gguf) or a URL of a .gguf,
// resolved against the default hub or a mirror that keeps the hub's /{repo}/resolve/main/{file} layout.
import { findPreset, modelPresets, type ModelPreset } from "./presets";
import { PullError } from "./pull-error";

export const defaultHub = "https://huggingface.co";

export interface ModelSource {
  readonly url: string;
  /** The file name in the models folder (the model's id is this without .gguf). */
  readonly fileName: string;
  readonly preset?: ModelPreset;
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * https only, except plain http to this machine (a mirror or test server on loopback): a model is
 * code the server runs, so it does not travel unencrypted across a network.
 */
export function checkTransport(url: URL, what: string): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && loopbackHosts.has(url.hostname)) return;
  throw new PullError("bad-source", `${what} must be an https:// address (plain http only to this machine: 127.0.0.1, localhost, [::1]); got ${url.origin}`);
}

/** The mirror base to use: the option, else the environment's WISP_MODEL_MIRROR, else the hub. */
export function mirrorBase(option: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const chosen = (option ?? "").trim() || (env.WISP_MODEL_MIRROR ?? "").trim() || defaultHub;
  let url: URL;
  try {
    url = new URL(chosen);
  } catch {
    throw new PullError("bad-source", `the model mirror "${chosen}" is not a URL; give a base such as https://mirror.example.com`);
  }
  checkTransport(url, "the model mirror");
  if (url.search || url.hash) throw new PullError("bad-source", `the model mirror "${chosen}" must be a plain base URL, without ? or #`);
  return url.href.replace(/\/+$/, "");
}

/** The hub-style address of one file of a repository, under `base` (which may carry a path prefix). */
export function hubFileUrl(base: string, repo: string, file: string): string {
  const encode = (part: string) => part.split("/").map(encodeURIComponent).join("/");
  return `${base}/${encode(repo)}/resolve/main/${encode(file)}`;
}

/** Resolves NAME|URL; `base` is the result of mirrorBase. */
export function resolveModelSource(spec: string, base: string, presets: readonly ModelPreset[] = modelPresets): ModelSource {
  const trimmed = spec.trim();
  const preset = findPreset(trimmed, presets);
  if (preset) return { url: hubFileUrl(base, preset.repo, preset.file), fileName: preset.file, preset };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return fromUrl(trimmed, base);
  // owner/repo/file.gguf, as the hub names a file.
  const hubPath = /^([\w.-]+\/[\w.-]+)\/([\w.-]+\.gguf)$/i.exec(trimmed);
  if (hubPath) return { url: hubFileUrl(base, hubPath[1]!, hubPath[2]!), fileName: hubPath[2]! };
  throw new PullError("bad-source", `unknown model "${trimmed}": use a preset (${presets.map((p) => p.name).join(", ")}), owner/repo/file.gguf, or an https:// URL of a .gguf file`);
}

function fromUrl(text: string, base: string): ModelSource {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PullError("bad-source", `"${text}" is not a valid URL`);
  }
  checkTransport(url, "a model URL");
  const fileName = decodeURIComponent(url.pathname.split("/").pop() ?? "");
  if (!/^[^/\\]+\.gguf$/i.test(fileName) || fileName.startsWith(".")) {
    throw new PullError("bad-source", `${url.href} does not name a .gguf file; give the address of the file itself (…/resolve/main/NAME.gguf)`);
  }
  // A hub address goes through the mirror when one is set, with the same path.
  const hubOrigin = new URL(defaultHub).origin;
  const routed = url.origin === hubOrigin && base !== defaultHub ? `${base}${url.pathname}${url.search}` : url.href;
  return { url: routed, fileName };
}
