/** The ways out an inline chat error offers, by error kind (WispError kinds). */
import type { ErrorAction } from "./protocol";

export interface ErrorActionButton {
  readonly action: ErrorAction;
  readonly label: string;
}

const labels: Record<ErrorAction, string> = {
  setApiKey: "Set API Key",
  selectModel: "Select Model",
  retry: "Retry",
  startLocalServer: "Start Local Server",
  openSettings: "Open Settings",
  showLogs: "Show Logs",
  downloadModel: "Download a Model",
  connectServer: "Connect a Server",
};

/** The way out of the embedded models, under the first answer and the agent's refusal. */
export const wayOutActions: readonly ErrorActionButton[] = [
  { action: "downloadModel", label: labels.downloadModel },
  { action: "connectServer", label: labels.connectServer },
];

/**
 * What the user can do about a failure of this kind. `local` says the base URL is on this machine,
 * where starting the bundled server may be the fix.
 */
export function errorActions(kind: string, options: { local: boolean }): ErrorActionButton[] {
  const pick = (...actions: ErrorAction[]) => actions.map((action) => ({ action, label: labels[action] }));
  switch (kind) {
    case "no-key":
    case "bad-key":
    case "forbidden":
      return pick("setApiKey", "retry");
    case "unknown-model":
    case "no-model":
      return pick("selectModel", "retry");
    case "unreachable":
      return options.local ? pick("retry", "startLocalServer", "openSettings") : pick("retry", "openSettings");
    case "bad-request":
      return pick("retry", "openSettings", "showLogs");
    default:
      return pick("retry", "showLogs");
  }
}
