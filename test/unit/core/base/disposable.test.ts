import assert from "node:assert/strict";
import { DisposableStore, toDisposable } from "../../../../src/core/base/disposable";

describe("disposables", () => {
  it("toDisposable runs its cleanup once", () => {
    let runs = 0;
    const d = toDisposable(() => runs++);
    d.dispose();
    d.dispose();
    assert.equal(runs, 1);
  });

  it("a store disposes newest first, once, and disposes late additions at once", () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push("first")));
    store.add(toDisposable(() => order.push("second")));
    store.dispose();
    store.dispose();
    assert.deepEqual(order, ["second", "first"]);
    assert.ok(store.isDisposed);
    store.add(toDisposable(() => order.push("late")));
    assert.deepEqual(order, ["second", "first", "late"]);
  });

  it("disposes everything even when some throw, then reports the failures", () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push("a")));
    store.add(toDisposable(() => { throw new Error("one"); }));
    store.add(toDisposable(() => { throw new Error("two"); }));
    assert.throws(() => store.dispose(), (e: unknown) => e instanceof AggregateError && e.errors.length === 2);
    assert.deepEqual(order, ["a"]);

    const single = new DisposableStore();
    single.add(toDisposable(() => { throw new Error("only"); }));
    assert.throws(() => single.dispose(), /only/);
  });
});
