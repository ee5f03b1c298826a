/**
 * Date.now as a system clock that can be set (NTP, a laptop waking), for the Mocha suite this is
 * called in: `shift(ms)` moves the time of day on or back; each test starts from the real time.
 */
export function settableTimeOfDay(): { shift(ms: number): void } {
  const wallClock = Date.now;
  let timeOfDay = 0;
  beforeEach(() => {
    timeOfDay = wallClock();
    Date.now = () => timeOfDay;
  });
  afterEach(() => {
    Date.now = wallClock;
  });
  return {
    shift(ms) {
      timeOfDay += ms;
    },
  };
}
