// `Wisp: Download Model…`: a recommended model or any GGUF URL into the local server's models folder,
// with a cancellable progress notification; afterwards the model takes over the roles it fits that
// the user did not choose (with Undo), or, where the user chose them all, an offer to use it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { describeProgress, formatBytes, type DownloadProgress } from "../../server/models/pull/download-progress";
import { mirrorBase, resolveModelSource } from "../../server/models/pull/model-source";
import { findPreset, modelPresets, type ModelPreset } from "../../server/models/pull/presets";
import { PullError } from "../../server/models/pull/pull-error";
import { pullModel, type PullResult } from "../../server/models/pull/pull-model";
import type { ModelInfo } from "../../core/api/models";
import type { Logger } from "../logger";
import { fitOf, followDownload } from "../onboarding/follow-download";
import type { Settings } from "../settings";

/** What the downloaded model is used for: the answer to the offer, or a scripted caller's choice. */
export type ModelUse = "completion" | "chat" | "both" | "next-edit" | "none";

export interface DownloadModelDeps {
  readonly settings: Settings;
  readonly log: Logger;
  /** The local server's models folder. */
  readonly modelsDir: () => string;
  /** Lists the server's models again, so the new one is known at once. */
  readonly refreshModels: () => Promise<unknown>;
  /** Where the roles a download took over are remembered, and the server's models once refreshed. */
  readonly follow?: { readonly memento: vscode.Memento; readonly listed: () => readonly ModelInfo[] };
}

/** The local server's models folder, its model list refreshed after a download, roles following it. */
export function localDownloadDeps(deps: {
  readonly settings: Settings;
  readonly log: Logger;
  readonly modelsDir: () => string;
  readonly connection: { check(): Promise<unknown>; readonly knownModels: readonly ModelInfo[] };
  readonly memento: vscode.Memento;
}): DownloadModelDeps {
  const { settings, log, modelsDir, connection, memento } = deps;
  return { settings, log, modelsDir, refreshModels: () => connection.check(), follow: { memento, listed: () => connection.knownModels } };
}

const uses: Readonly<Record<string, ModelUse>> = { "Use for Completions": "completion", "Use for Chat": "chat", "Use for Both": "both", "Use for Next Edit": "next-edit" };

/** Scripted callers may pass what to download (a preset, owner/repo/file.gguf or a URL) and its use. */
export async function downloadModel(deps: DownloadModelDeps, specArg?: unknown, useArg?: unknown): Promise<string | undefined> {
  const modelsDir = deps.modelsDir();
  const spec = typeof specArg === "string" ? specArg : await pickModel(modelsDir, deps.settings.value.localServer.modelMirror);
  if (spec === undefined) return undefined;
  const preset = findPreset(spec);
  let result: PullResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Wisp: downloading ${preset?.name ?? spec}`, cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let shown = 0;
        let logged = -1;
        return pullModel({
          spec,
          modelsDir,
          mirror: deps.settings.value.localServer.modelMirror,
          env: process.env,
          signal: abort.signal,
          onStart: (source) => deps.log.info(`downloading ${source.url} into ${source.partFile}`),
          onProgress: (p: DownloadProgress) => {
            const percent = p.total ? (p.received / p.total) * 100 : 0;
            progress.report({ message: describeProgress(p), increment: percent - shown });
            shown = percent;
            if (Math.floor(percent / 25) > logged) deps.log.info(`download ${describeProgress(p)}`);
            logged = Math.max(logged, Math.floor(percent / 25));
          },
        });
      },
    );
  } catch (error) {
    if (!(error instanceof PullError && error.kind === "cancelled")) throw error;
    deps.log.info(`download of ${spec} cancelled`);
    void vscode.window.showInformationMessage("Wisp: download cancelled. What arrived is kept: download the same model again to resume.");
    return undefined;
  }
  describeResult(result, deps.log);
  await deps.refreshModels();
  const use = typeof useArg === "string" && ["completion", "chat", "both", "next-edit", "none"].includes(useArg) ? (useArg as ModelUse) : undefined;
  if (use !== undefined) await applyUse(deps.settings, result.modelId, use);
  else if (deps.follow === undefined) void offerUse(deps, result, preset);
  else {
    const { memento, listed } = deps.follow;
    const fit = fitOf(preset?.role, listed().find((m) => m.id === result.modelId));
    const plan = await followDownload({ settings: deps.settings, log: deps.log, memento }, result.modelId, fit);
    // Every role it fits has the user's own model: ask.
    if (plan.take.length === 0 && plan.kept.length > 0) void offerUse(deps, result, preset);
  }
  return result.modelId;
}

function describeResult(result: PullResult, log: Logger): void {
  if (result.alreadyPresent) return log.info(`${result.file} is already in the models folder: nothing downloaded`);
  const resumed = result.resumedFrom ? `, resumed after ${formatBytes(result.resumedFrom)}` : "";
  log.info(`downloaded ${result.file} (${formatBytes(result.bytes ?? 0)}, ${result.requests} requests${resumed}); sha256 ${result.sha256} (${result.checked})`);
}

async function offerUse(deps: DownloadModelDeps, result: PullResult, preset: ModelPreset | undefined): Promise<void> {
  const buttons = preset?.role === "next-edit" ? ["Use for Next Edit"] : preset?.role === "chat" ? ["Use for Chat", "Use for Completions", "Use for Both"] : ["Use for Completions", "Use for Chat", "Use for Both"];
  const what = result.alreadyPresent ? "is already downloaded" : `is downloaded (${formatBytes(result.bytes ?? 0)})`;
  const answer = await vscode.window.showInformationMessage(`Wisp: ${result.modelId} ${what}. Use it with the local server?`, ...buttons);
  if (answer !== undefined) await applyUse(deps.settings, result.modelId, uses[answer] ?? "none");
}

async function applyUse(settings: Settings, modelId: string, use: ModelUse): Promise<void> {
  if (use === "completion" || use === "both") await settings.setModel("completion", modelId);
  if (use === "chat" || use === "both") await settings.setModel("chat", modelId);
  if (use === "next-edit") await settings.setNextEditModel(modelId);
}

type PickItem = vscode.QuickPickItem & { spec?: string };

async function pickModel(modelsDir: string, mirror: string): Promise<string | undefined> {
  const item = (p: ModelPreset): PickItem => ({
    label: p.name,
    description: `${existsSync(join(modelsDir, p.file)) ? "downloaded · " : ""}~${formatBytes(p.approxBytes)} · RAM ~${p.ramGb} GB · ${p.licence}`,
    detail: `${p.description} — ${p.repo}/${p.file}`,
    spec: p.name,
  });
  const section = (label: string): PickItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const items: PickItem[] = [
    section("Completion: code models that fill in the middle"),
    ...modelPresets.filter((p) => p.role === "completion").map(item),
    section("Chat: instruct models"),
    ...modelPresets.filter((p) => p.role === "chat").map(item),
    section("Next edit: models that predict the next edit (wisp.nextEdit.model)"),
    ...modelPresets.filter((p) => p.role === "next-edit").map(item),
    section("Other"),
    { label: "$(link) A GGUF file by URL or hub path…", detail: "https://…/model.gguf, or owner/repo/file.gguf" },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: "Wisp: Download Model", placeHolder: `Into ${modelsDir}`, matchOnDetail: true });
  if (picked === undefined || picked.spec !== undefined) return picked?.spec;
  const typed = await vscode.window.showInputBox({
    title: "Wisp: Download Model",
    prompt: "The address of a .gguf file (https; plain http only to this machine), or owner/repo/file.gguf on the hub",
    ignoreFocusOut: true,
    validateInput: (value) => {
      try {
        resolveModelSource(value, mirrorBase(mirror, process.env));
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  });
  return typed?.trim() || undefined;
}
