// `Wisp: Download a Model for This Machine…`: the three coder models, the one that fits this
// machine first (why, its download size and the memory it needs shown), downloaded with Download
// Model's progress, resume and checksum.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { describeMachine, recommendCoderModel, type CoderSize, type MachineFacts } from "../../core/onboarding/recommend-model";
import { formatBytes } from "../../server/models/pull/download-progress";
import { findPreset, type ModelPreset } from "../../server/models/pull/presets";
import { downloadModel, type DownloadModelDeps } from "../local-engine/download-model";

export interface RecommendedDownloadDeps extends DownloadModelDeps {
  readonly machine: () => Promise<MachineFacts>;
}

const sizes: readonly CoderSize[] = ["0.5b", "1.5b", "7b"];
/** Who each size is for (docs/models.md has the table the recommendation follows). */
const fitsWhom: Readonly<Record<CoderSize, string>> = {
  "0.5b": "The fastest ghost text and the weakest answers: for small laptops and 2-core machines.",
  "1.5b": "Good ghost text and answers on most laptops (8 GB of memory and 4 cores).",
  "7b": "Better ghost text and answers: for 16 GB and 8 cores, or Apple silicon with 16 GB.",
};

/** The coder preset of a size (presets.ts names them qwen2.5-coder-SIZE). */
export function coderPreset(size: CoderSize): ModelPreset {
  const preset = findPreset(`qwen2.5-coder-${size}`);
  if (preset === undefined) throw new Error(`no coder preset of size ${size}`);
  return preset;
}

type Item = vscode.QuickPickItem & { readonly spec?: string; readonly more?: true };

export async function downloadRecommendedModel(deps: RecommendedDownloadDeps): Promise<string | undefined> {
  const facts = await deps.machine();
  const recommended = recommendCoderModel(facts);
  const modelsDir = deps.modelsDir();
  const ordered = [recommended.size, ...sizes.filter((s) => s !== recommended.size)];
  const item = (size: CoderSize): Item => {
    const preset = coderPreset(size);
    const first = size === recommended.size;
    const downloaded = existsSync(join(modelsDir, preset.file)) ? " · downloaded" : "";
    return {
      label: `${first ? "$(star-full) " : ""}${preset.description.split(":")[0]}`,
      description: `${first ? "recommended · " : ""}${formatBytes(preset.approxBytes)} download · about ${preset.ramGb} GB of memory${downloaded}`,
      detail: first ? `For this machine: ${recommended.why}.` : fitsWhom[size],
      spec: preset.name,
    };
  };
  const items: Item[] = [
    ...ordered.map(item),
    { label: "", kind: vscode.QuickPickItemKind.Separator },
    { label: "$(list-unordered) Other models…", detail: "Chat and next-edit models, larger coder models, or any GGUF file by URL (Wisp: Download Model…)", more: true },
  ];
  deps.log.info(`get started: this machine has ${describeMachine(facts)}; recommended ${coderPreset(recommended.size).name}`);
  const picked = await vscode.window.showQuickPick(items, {
    title: `Wisp: a code model for this machine (${describeMachine(facts)})`,
    placeHolder: `Downloaded into ${modelsDir}, served by the local server`,
    matchOnDetail: true,
  });
  if (picked === undefined) return undefined;
  if (picked.more) return vscode.commands.executeCommand<string | undefined>("wisp.downloadModel");
  return downloadModel(deps, picked.spec);
}
