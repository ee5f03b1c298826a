import type { CompletionStream, CompletionStreamRequest } from "./types";

interface Running {
  readonly scope: string;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/**
 * Warms the server's prompt cache: a request for the prompt a completion at the cursor would send,
 * with `maxTokens: 0`, so the server evaluates it and generates nothing. The first suggestion in a
 * file then costs what later ones do (they extend an evaluated prompt). One at a time: a newer
 * warm-up replaces the running one, the same prompt is not warmed twice in a row, and a failure is
 * nobody's error (nothing is shown, nothing is reported).
 */
export class PromptWarmUp {
  private running: Running | undefined;
  private lastKey: string | undefined;

  constructor(private readonly stream: CompletionStream) {}

  start(scope: string, request: CompletionStreamRequest): void {
    const key = `${scope}\u0000${request.prompt}\u0000${request.suffix ?? ""}`;
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.running?.controller.abort();
    const controller = new AbortController();
    const done = (async () => {
      try {
        for await (const _ of this.stream({ ...request, maxTokens: 0, stop: [] }, controller.signal)) void _;
      } catch {
        if (this.lastKey === key) this.lastKey = undefined; // may be tried again
      }
    })();
    const running: Running = { scope, controller, done };
    this.running = running;
    void done.finally(() => {
      if (this.running === running) this.running = undefined;
    });
  }

  /**
   * Before a completion request in `scope`: a warm-up of the same file is evaluating what that
   * request needs, so it is waited for (a request beside it would evaluate the same prompt again,
   * on the same cores); another file's is stopped.
   */
  settled(scope: string): Promise<void> {
    const running = this.running;
    if (!running) return Promise.resolve();
    if (running.scope === scope) return running.done;
    running.controller.abort();
    return Promise.resolve();
  }

  dispose(): void {
    this.running?.controller.abort();
  }
}
