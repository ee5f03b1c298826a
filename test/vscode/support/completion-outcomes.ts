import type { WispApi } from "../../../src/extension/extension";
import { waitFor } from "../../harness/wait-for";

/**
 * Resolves once the pipeline has recorded no completion outcome for `ms`. The editor renders ghost
 * text a moment after the provider answers (and may ask again meanwhile): Tab goes in after that,
 * as a user's would. Tab pressed before it is rendered does nothing.
 */
export async function outcomesQuiet(api: WispApi, ms = 1_000): Promise<void> {
  let count = -1;
  let since = 0;
  const quietFor = () => {
    const now = api.completionOutcomes().length;
    if (now !== count) [count, since] = [now, Date.now()];
    return Date.now() - since;
  };
  await waitFor("no new completion outcome", quietFor, (t) => t >= ms, 15_000);
}
