// The first minute, from install to suggestions worth keeping: the walkthrough and its commands,
// the context keys its steps and the chat's welcome content read, and the embedded-models notice.
import * as vscode from "vscode";
import { servesOnlyEmbeddedModels } from "../../core/onboarding/embedded-models";
import { delay } from "../../core/base/delay";
import { servesRealTextModel, setupProblems, setupState, type SetupState } from "../../core/onboarding/setup-state";
import type { ApiKeyStore } from "../api-key";
import type { ClientFactory } from "../client-factory";
import type { ConnectionMonitor } from "../connection-monitor";
import { localDownloadDeps } from "../local-engine/download-model";
import type { LocalServer } from "../local-server";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { Settings } from "../settings";
import { connectServer } from "./connect-server";
import { EmbeddedNotice, openWalkthroughOnce, walkthroughId } from "./first-run";
import { readMachineFacts } from "./machine-facts";
import { downloadRecommendedModel } from "./recommended-download";
import { askChatAboutSample, tryGhostText } from "./sample-file";
import { setContext } from "../set-context";

/** What the walkthrough's steps 2 to 5 wait for (their completionEvents: onContext:wisp.tried.NAME). */
export type Milestone = "ghostText" | "chat" | "agent" | "image";

export interface OnboardingDeps {
  readonly context: vscode.ExtensionContext;
  readonly settings: Settings;
  readonly keys: ApiKeyStore;
  readonly clients: ClientFactory;
  readonly connection: ConnectionMonitor;
  readonly localServer: LocalServer;
  readonly log: Logger;
  /** Resolves once auto-start has acted: until then a server that does not answer may be on its way. */
  readonly autoStartSettled: () => Promise<void>;
}

/** Read-only views for the extension's own tests. */
export interface OnboardingProbe {
  /** The `wisp.setup` context key: what the chat's welcome content explains. */
  setupState(): SetupState;
  /** Whether the Setup view (the chat's welcome content) is on screen. */
  setupViewVisible(): boolean;
  /** The milestones reached in this window. */
  reached(): readonly Milestone[];
  /** Whether the embedded-models notice was shown in this window. */
  noticeShown(): boolean;
  /** Whether this activation opened the walkthrough (the profile's first). */
  walkthroughOpened(): boolean;
}

export interface Onboarding {
  readonly disposable: vscode.Disposable;
  readonly probe: OnboardingProbe;
  reach(milestone: Milestone): void;
  /** The first-activation part: opens the walkthrough if it never was. */
  start(): Promise<void>;
}

export const setupViewId = "wisp.setup";
/** How long a problem must last before the Setup view explains it (a server starting, a check under way). */
const problemSettleMs = 1500;

export function registerOnboarding(deps: OnboardingDeps): Onboarding {
  const { context, settings, keys, clients, connection, localServer, log } = deps;
  const command = (id: string, run: (...args: unknown[]) => unknown) => registerWispCommand(id, run, log);
  const notice = new EmbeddedNotice(context.globalState, log);
  const reached = new Set<Milestone>();
  let state: SetupState = "checking";
  let realModel: boolean | undefined;
  let walkthroughOpened = false;
  // An empty tree: VS Code shows a view's welcome content while its tree has no items.
  const setupView = vscode.window.createTreeView(setupViewId, { treeDataProvider: { getTreeItem: (item: vscode.TreeItem) => item, getChildren: () => [] } });

  let generation = 0;
  const compute = () => {
    const ready = connection.current.kind === "ready";
    return setupState(connection.current, localServer.state, ready ? connection.knownModels : [], settings.value.chat.model);
  };
  const update = async (): Promise<void> => {
    const mine = ++generation;
    const models = connection.knownModels;
    const ready = connection.current.kind === "ready";
    const real = ready && servesRealTextModel(models);
    if (real !== realModel) {
      realModel = real;
      void setContext("wisp.realModel", real);
    }
    notice.consider(ready && servesOnlyEmbeddedModels(models));
    let next = compute();
    if (setupProblems.includes(next)) {
      // Auto-start may be about to start the local server (and make its key), and a server that just
      // came up is checked again at once: a problem still there a moment later is one to show.
      await deps.autoStartSettled();
      await delay(problemSettleMs);
      if (mine !== generation) return;
      next = compute();
    }
    if (next === state) return;
    state = next;
    log.info(`get started: setup ${state}`);
    await setContext("wisp.setup", state);
  };
  const refresh = () => void update();

  const downloads = () => localDownloadDeps({ settings, log, modelsDir: () => localServer.modelsDir, connection, memento: context.globalState });
  const disposable = vscode.Disposable.from(
    setupView,
    connection.onDidChange(refresh),
    localServer.onDidChange(refresh),
    settings.onDidChange(refresh),
    command("wisp.getStarted", () => vscode.commands.executeCommand("workbench.action.openWalkthrough", walkthroughId, false)),
    command("wisp.downloadRecommendedModel", () => downloadRecommendedModel({ ...downloads(), machine: readMachineFacts })),
    command("wisp.connectServer", (url, key, prefill) => connectServer({ settings, keys, clients, connection, log }, url, key, prefill)),
    command("wisp.getStarted.tryGhostText", () => tryGhostText(context.globalStorageUri)),
    command("wisp.getStarted.askChat", () => askChatAboutSample(context.globalStorageUri)),
  );
  refresh();

  return {
    disposable,
    probe: {
      setupState: () => state,
      setupViewVisible: () => setupView.visible,
      reached: () => [...reached],
      noticeShown: () => notice.shown,
      walkthroughOpened: () => walkthroughOpened,
    },
    reach: (milestone) => {
      if (reached.has(milestone)) return;
      reached.add(milestone);
      log.info(`get started: ${milestone} tried`);
      void setContext(`wisp.tried.${milestone}`, true);
    },
    start: async () => {
      walkthroughOpened = await openWalkthroughOnce(context.globalState, log);
    },
  };
}
