// The console's admin token: made on first start, kept owner-only in DATA/admin-token (the
// extension on the same machine reads it to open the console), compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../atomic-file";
import type { AdminTokens } from "./console-sessions";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

export const adminTokenFile = (dataDir: string): string => path.join(dataDir, "admin-token");

export const newAdminToken = (): string => `wisp-admin-${randomBytes(32).toString("base64url")}`;

export class AdminToken implements AdminTokens {
  private constructor(readonly file: string, private readonly hash: Buffer) {}

  /** Reads the token, or creates one; `token` is returned only to print the login URL. */
  static async loadOrCreate(dataDir: string, log: (message: string) => void = () => undefined): Promise<{ admin: AdminToken; token: string; created: boolean }> {
    const file = adminTokenFile(dataDir);
    if (existsSync(file)) {
      const mode = (await stat(file)).mode & 0o777;
      if (mode & 0o077) {
        await chmod(file, 0o600);
        log(`${file} was readable by others (mode ${mode.toString(8)}); made it owner-only`);
      }
      const token = (await readFile(file, "utf8")).trim();
      if (token.length < 16) throw new Error(`${file} holds no usable token (at least 16 characters); delete it to make a new one`);
      return { admin: new AdminToken(file, digest(token)), token, created: false };
    }
    return { ...(await AdminToken.replace(dataDir)), created: true };
  }

  /** Makes a new token in place of the old one (`wisp-server admin-token new`). */
  static async replace(dataDir: string): Promise<{ admin: AdminToken; token: string }> {
    const file = adminTokenFile(dataDir);
    const token = newAdminToken();
    await writeFileAtomic(file, `${token}\n`);
    return { admin: new AdminToken(file, digest(token)), token };
  }

  /** Constant time in the candidate's content: both sides are hashed to the same length first. */
  async verify(candidate: unknown): Promise<boolean> {
    return typeof candidate === "string" && candidate !== "" && timingSafeEqual(digest(candidate), this.hash);
  }
}
