import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The raw text of the user's settings.json in the profile the harness created (empty when absent). */
export function userSettingsText(): string {
  const dir = process.env.WISP_TEST_USER_DATA_DIR;
  if (dir === undefined) throw new Error("WISP_TEST_USER_DATA_DIR is not set: run through npm run test:vscode");
  try {
    return readFileSync(join(dir, "User", "settings.json"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}
