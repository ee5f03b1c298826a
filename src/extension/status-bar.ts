import * as vscode from "vscode";
import { parseBaseUrl } from "../client/base-url";
import type { LocalServerState } from "../core/local-server/local-server-state";
import { servesOnlyEmbeddedModels } from "../core/onboarding/embedded-models";
import { describeStatus, type KeySource, type StatusView } from "../core/status/describe-status";
import type { ConnectionMonitor } from "./connection-monitor";
import type { Settings } from "./settings";

/**
 * The Wisp status bar item. It owns only the transient facts (busy, last latency, last error);
 * everything else is read from the settings and the connection monitor when it renders.
 */
export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[];
  private keySource: KeySource = "none";
  private keyProblem: string | undefined;
  private busyCount = 0;
  private lastLatencyMs: number | undefined;
  private lastError: string | undefined;
  private readonly outcomes: Record<string, number> = {};
  private localServer: LocalServerState = { kind: "stopped" };
  private localServerAvailable = true;
  private view: StatusView;

  constructor(private readonly settings: Settings, private readonly connection: ConnectionMonitor) {
    this.item = vscode.window.createStatusBarItem("wisp.status", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "Wisp";
    this.item.command = "wisp.statusMenu";
    this.subscriptions = [
      settings.onDidChange(() => this.render()),
      // editor.inlineSuggest.enabled, also set per language: the active editor's says whether ghost text shows.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("editor.inlineSuggest.enabled")) this.render();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      // A new connection state (key set, server back) makes an earlier request error stale.
      connection.onDidChange(() => {
        this.lastError = undefined;
        this.render();
      }),
    ];
    this.view = this.render();
    this.item.show();
  }

  /** The current text/tooltip/state, as shown. */
  get current(): StatusView { return this.view; }

  setKeySource(source: KeySource, problem?: string): void {
    this.keySource = source;
    this.keyProblem = problem;
    this.render();
  }

  setLocalServer(state: LocalServerState): void {
    this.localServer = state;
    this.render();
  }

  /** Whether a local server can run from this package (false: the universal one, no command set). */
  setLocalServerAvailable(available: boolean): void {
    this.localServerAvailable = available;
    this.render();
  }

  /** Marks one request as started; the returned function marks it finished. */
  beginRequest(): () => void {
    this.busyCount++;
    this.render();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.busyCount--;
      this.render();
    };
  }

  reportSuccess(latencyMs: number): void {
    this.lastLatencyMs = latencyMs;
    this.lastError = undefined;
    this.render();
  }

  /** Counts how a completion ended (shown in the tooltip). */
  countOutcome(kind: string): void {
    this.outcomes[kind] = (this.outcomes[kind] ?? 0) + 1;
    this.render();
  }

  /** Shown once in the status bar (not as a notification) until a request succeeds again. */
  reportError(message: string): void {
    this.lastError = message;
    this.render();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }

  private render(): StatusView {
    const s = this.settings.value;
    this.view = describeStatus({
      connection: this.connection.current,
      completionsEnabled: s.completion.enabled,
      editorShowsGhostText: vscode.workspace.getConfiguration("editor", vscode.window.activeTextEditor?.document).get<boolean>("inlineSuggest.enabled") !== false,
      keySource: this.keySource,
      keyProblem: this.keyProblem,
      // Never the user name, password or query of the setting: they may be credentials.
      baseUrl: parseBaseUrl(s.baseUrl).display,
      busy: this.busyCount > 0,
      lastLatencyMs: this.lastLatencyMs,
      lastError: this.lastError,
      outcomes: this.outcomes,
      localServer: this.localServer,
      localServerAvailable: this.localServerAvailable,
      embeddedOnly: servesOnlyEmbeddedModels(this.connection.knownModels),
    });
    this.item.text = this.view.text;
    this.item.tooltip = this.view.tooltip;
    const warn = ["no-key", "bad-key", "unreachable", "error"].includes(this.view.state);
    this.item.backgroundColor = warn ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    return this.view;
  }
}
