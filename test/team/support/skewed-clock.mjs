// Loaded with `node --import` into a replica whose clock is to be off, as a machine's wall clock
// without NTP: Date (Date.now(), new Date()) runs WISP_TEST_CLOCK_SKEW_MS ms ahead (negative:
// behind). Timers and performance.now() keep time as before, as a steady clock does.
const skew = Number(process.env.WISP_TEST_CLOCK_SKEW_MS ?? 0);
const RealDate = Date;
const now = () => RealDate.now() + skew;

globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
  apply: () => new RealDate(now()).toString(),
  get: (target, property, receiver) => (property === "now" ? now : Reflect.get(target, property, receiver)),
});
