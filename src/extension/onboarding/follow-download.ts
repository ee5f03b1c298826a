// After a download: the model takes over the roles it fits that the user did not choose, and a
// notification says which, with Undo (the settings as they were) and Choose Models.
import * as vscode from "vscode";
import type { ModelInfo } from "../../core/api/models";
import { describeFollow, planFollow, type FollowPlan, type FollowRole, type ModelFit, type RoleModels } from "../../core/onboarding/role-follow";
import type { PresetRole } from "../../server/models/pull/presets";
import type { Logger } from "../logger";
import { updateSetting, type Settings } from "../settings";

/** Per role, the model Wisp itself set there when it followed the last download. */
const followedKey = "wisp.followedModels";

const settingOf: Readonly<Record<FollowRole, string>> = { completion: "completion.model", chat: "chat.model", nextEdit: "nextEdit.model" };

export interface FollowDeps {
  readonly settings: Settings;
  readonly log: Logger;
  readonly memento: vscode.Memento;
}

/** What the model is for: its preset's role, else what the server says of it (fill-in-the-middle: a coder). */
export function fitOf(presetRole: PresetRole | undefined, listed: ModelInfo | undefined): ModelFit {
  if (presetRole === "completion") return "coder";
  if (presetRole === "chat" || presetRole === "next-edit") return presetRole;
  return listed?.fim ? "coder" : "chat";
}

/** Sets the roles the model takes over and tells the user; the plan says what it took and what it kept. */
export async function followDownload(deps: FollowDeps, model: string, fit: ModelFit): Promise<FollowPlan> {
  const s = deps.settings.value;
  const current: RoleModels = { completion: s.completion.model, chat: s.chat.model, nextEdit: s.nextEdit.model };
  const followed = deps.memento.get<RoleModels>(followedKey, {});
  const plan = planFollow(fit, model, current, followed);
  if (plan.take.length === 0) return plan;
  for (const { role } of plan.take) await write(role, model);
  await deps.memento.update(followedKey, { ...followed, ...Object.fromEntries(plan.take.map((t) => [t.role, model])) });
  const roles = plan.take.map((t) => t.role);
  deps.log.info(`download: ${model} takes over ${roles.join(", ")} (${plan.take.map((t) => `${t.role} was ${t.previous || "the server's default"}`).join("; ")})`);
  const kept = plan.kept.length === 0 ? "" : ` Kept your choice for ${plan.kept.map((r) => settingOf[r]).join(" and ")}.`;
  void vscode.window.showInformationMessage(`Wisp: ${describeFollow(model, roles)}${kept}`, "Undo", "Choose Models").then(async (answer) => {
    if (answer === "Undo") await undo(deps, model, plan, followed);
    if (answer === "Choose Models") await vscode.commands.executeCommand("wisp.selectModel");
  });
  return plan;
}

/** The settings as they were, where they still name the downloaded model. */
async function undo(deps: FollowDeps, model: string, plan: FollowPlan, followedBefore: RoleModels): Promise<void> {
  const followed = { ...deps.memento.get<RoleModels>(followedKey, {}) };
  for (const { role, previous } of plan.take) {
    const now = role === "nextEdit" ? deps.settings.value.nextEdit.model : deps.settings.value[role].model;
    if (now !== model) continue;
    await write(role, previous);
    if (followed[role] !== model) continue;
    if (followedBefore[role] === undefined) delete followed[role];
    else followed[role] = followedBefore[role];
  }
  await deps.memento.update(followedKey, followed);
  deps.log.info(`download: undone, ${plan.take.map((t) => `${settingOf[t.role]} back to ${t.previous || "the server's default"}`).join(", ")}`);
}

/** "" removes the setting: the role uses the server's first model of its kind again. */
async function write(role: FollowRole, model: string): Promise<void> {
  await updateSetting(settingOf[role], model === "" ? undefined : model);
}
