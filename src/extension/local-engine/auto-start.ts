import * as vscode from "vscode";
import { localAddress } from "../../core/net/local-address";
import type { ConnectionMonitor } from "../connection-monitor";
import { StartCancelled, type LocalServer } from "../local-server";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { portInUse } from "./port-probe";

export interface AutoStartDeps {
  readonly settings: Settings;
  readonly connection: ConnectionMonitor;
  readonly localServer: LocalServer;
  readonly log: Logger;
}

/**
 * `wisp.localServer.autoStart`: starts the local server when `wisp.baseUrl` is an http address on
 * this machine and nothing listens there yet: now (VS Code starting), when a setting changes, and
 * when the server goes away later (say, another window's). Not after Wisp: Stop Local Server (in
 * this window, or in another one still open) or a failed start, until the user starts it again. A server this window runs for a base URL that
 * changed since is stopped.
 */
export interface AutoStart extends vscode.Disposable {
  /** Resolves once the evaluations asked for so far have run (tests wait on it rather than on time). */
  settled(): Promise<void>;
}

export function registerAutoStart({ settings, connection, localServer, log }: AutoStartDeps): AutoStart {
  /** The other window whose stop was last said in the log (said once, not at every check). */
  let told: number | undefined;
  const evaluate = async (): Promise<void> => {
    const { baseUrl, localServer: options } = settings.value;
    // Between restarts too: the next attempt would start it for an address no longer asked for,
    // and fail there, telling a user who switched on purpose that it "could not start again".
    const kind = localServer.state.kind;
    if ((kind === "running" || kind === "restarting") && !localServer.serves(baseUrl)) {
      log.info("stopping the local server: wisp.baseUrl no longer points at it");
      await localServer.stop(false);
    }
    if (!options.autoStart || localServer.active || localServer.state.kind === "failed") return;
    const stopper = localServer.stoppedElsewhere();
    if (stopper !== undefined && told !== stopper) {
      told = stopper;
      log.info(`not starting the local server: Wisp: Stop Local Server stopped it in another window (extension host pid ${stopper}); Wisp: Start Local Server starts it again`);
    }
    if (localServer.stoppedOnPurpose) return;
    // The universal package: the status bar's tooltip says so; nothing to start.
    if (!localServer.available) return;
    let address: { host: string; port: number };
    try {
      address = localAddress(baseUrl);
    } catch {
      return; // Not this machine's to serve.
    }
    // Another window's server, or one an earlier Wisp left: used as it is, said when its version differs.
    if (await portInUse(address.host, address.port)) return localServer.noteOtherServer(new URL(baseUrl).origin);
    log.info(`nothing answers at ${baseUrl}: starting the local server (wisp.localServer.autoStart)`);
    try {
      await localServer.start("auto");
    } catch (error) {
      if (error instanceof StartCancelled) return;
      const message = (error as Error).message;
      log.error(`local server auto-start: ${message}`);
      void vscode.window.showErrorMessage(`Wisp: could not start the local server: ${message}`, "Show Logs").then((choice) => {
        if (choice === "Show Logs") log.show();
      });
    }
  };
  // One evaluation at a time, in order.
  let queue = Promise.resolve();
  const schedule = (): void => {
    queue = queue.then(evaluate);
  };
  schedule();
  const subscriptions = vscode.Disposable.from(
    connection.onDidChange((state) => {
      if (state.kind === "unreachable") schedule();
    }),
    settings.onDidChange(() => schedule()),
  );
  return { settled: () => queue, dispose: () => subscriptions.dispose() };
}
