import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import {
  LinkedAbortController,
  isCancelledError,
  throwIfCancelled,
  type CancellationTokenLike,
} from "../../../../src/core/base/cancellation";
import { toDisposable, type Disposable } from "../../../../src/core/base/disposable";

/** A token with VS Code's shape, counting its live listeners. */
class TestToken implements CancellationTokenLike {
  isCancellationRequested = false;
  readonly listeners = new Set<() => void>();
  onCancellationRequested(listener: () => void): Disposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }
  cancel(): void {
    this.isCancellationRequested = true;
    for (const listener of [...this.listeners]) listener();
  }
}

describe("cancellation", () => {
  it("a linked controller aborts when any parent signal aborts", () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = new LinkedAbortController(a.signal, undefined, b.signal);
    assert.equal(linked.signal.aborted, false);
    b.abort();
    assert.equal(linked.signal.aborted, true);
    assert.equal(a.signal.aborted, false, "aborting the child does not touch other parents");
  });

  it("takes the parent's reason, and once disposed leaves a long-lived parent no listener", () => {
    const request = new AbortController();
    const closing = new AbortController();
    const linked = new LinkedAbortController(request.signal, closing.signal);
    assert.equal(getEventListeners(closing.signal, "abort").length, 1);
    const reason = new Error("client disconnected");
    request.abort(reason);
    assert.equal(linked.signal.reason, reason);
    linked.dispose();
    assert.equal(getEventListeners(closing.signal, "abort").length, 0, "nothing left for the closing signal to hold");
  });

  it("follows a VS Code-style token and lets go of it when disposed", () => {
    const token = new TestToken();
    const linked = new LinkedAbortController(token);
    assert.equal(token.listeners.size, 1);
    token.cancel();
    assert.equal(linked.signal.aborted, true);

    const other = new TestToken();
    const disposed = new LinkedAbortController(other);
    disposed.dispose();
    assert.equal(other.listeners.size, 0);
    other.cancel();
    assert.equal(disposed.signal.aborted, false);
  });

  it("starts aborted when a parent already is", () => {
    const token = new TestToken();
    token.cancel();
    assert.equal(new LinkedAbortController(token).signal.aborted, true);
    assert.equal(new LinkedAbortController(AbortSignal.abort()).signal.aborted, true);
  });

  it("throwIfCancelled throws an AbortError only once aborted", () => {
    const controller = new AbortController();
    throwIfCancelled(controller.signal);
    throwIfCancelled(undefined);
    controller.abort();
    assert.throws(() => throwIfCancelled(controller.signal), isCancelledError);
    assert.equal(isCancelledError(new Error("other")), false);
  });
});
