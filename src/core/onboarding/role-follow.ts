/**
 * Which settings a downloaded model takes over: the roles it fits whose model the user did not
 * choose. A role counts as chosen when its setting names a model other than the one Wisp itself
 * set there the last time it followed a download (an empty setting is the server's first model).
 */

export type FollowRole = "completion" | "chat" | "nextEdit";

/** What a downloaded model is for: a coder (fill-in-the-middle) model writes ghost text and answers in the chat. */
export type ModelFit = "coder" | "chat" | "next-edit";

export const rolesOf: Readonly<Record<ModelFit, readonly FollowRole[]>> = {
  coder: ["completion", "chat"],
  chat: ["chat"],
  "next-edit": ["nextEdit"],
};

export type RoleModels = Readonly<Partial<Record<FollowRole, string>>>;

export interface FollowPlan {
  /** Roles set to the new model, with the value each had before (for Undo). */
  readonly take: readonly { readonly role: FollowRole; readonly previous: string }[];
  /** Roles it fits that keep the user's own choice. */
  readonly kept: readonly FollowRole[];
}

export function planFollow(fit: ModelFit, model: string, current: RoleModels, setByWisp: RoleModels): FollowPlan {
  const take: { role: FollowRole; previous: string }[] = [];
  const kept: FollowRole[] = [];
  for (const role of rolesOf[fit]) {
    const value = current[role] ?? "";
    if (value === model) continue;
    if (value === "" || value === setByWisp[role]) take.push({ role, previous: value });
    else kept.push(role);
  }
  return { take, kept };
}

const roleWords: Readonly<Record<FollowRole, string>> = { completion: "writes ghost text", chat: "answers in the chat", nextEdit: "predicts next edits" };

/** "qwen2.5-coder-1.5b-q8_0 now writes ghost text and answers in the chat." */
export function describeFollow(model: string, roles: readonly FollowRole[]): string {
  const words = roles.map((r) => roleWords[r]);
  const joined = words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
  return `${model} now ${joined}.`;
}
