// Windows refuses to replace or remove a file that another process has open (a reader of the key
// file, a virus scanner): EPERM, EACCES or EBUSY for a moment. Such a step is tried again there;
// elsewhere these codes mean what they say and fail at once.

const busyCodes = new Set(["EPERM", "EACCES", "EBUSY"]);
/** Pauses between tries, ms: about 1.3 s in all. */
const defaultPauses = [10, 20, 40, 80, 160, 320, 640];

export async function retryWhileBusy<T>(step: () => Promise<T>, platform: NodeJS.Platform = process.platform, pauses: readonly number[] = defaultPauses): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (platform !== "win32" || !busyCodes.has(code) || attempt >= pauses.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauses[attempt]));
    }
  }
}
