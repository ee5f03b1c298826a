// The console's admin token: made on first start, kept owner-only in DATA/admin-token (the
// extension on the same machine reads it to open the console), compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileVersion, writeFileAtomic } from "../atomic-file";
import type { AdminTokens } from "./console-sessions";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

export const adminTokenFile = (dataDir: string): string => path.join(dataDir, "admin-token");

export const newAdminToken = (): string => `wisp-admin-${randomBytes(32).toString("base64url")}`;

/** The file's token, or "" when it went away meanwhile. */
function readTokenSync(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}

export class AdminToken implements AdminTokens {
  /**
   * The token's hash as the file held it when last read, re-read when the file changes: `wisp-server
   * admin-token new` in another shell replaces it while this server runs, and the old token must stop
   * logging in then, not at the next restart. No file, or no usable token in it: nothing logs in.
   */
  private current: { version: string; hash: Buffer | undefined } = { version: "", hash: undefined };

  private constructor(readonly file: string) {}

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
      return { admin: new AdminToken(file), token, created: false };
    }
    return { ...(await AdminToken.replace(dataDir)), created: true };
  }

  /** Makes a new token in place of the old one (`wisp-server admin-token new`). */
  static async replace(dataDir: string): Promise<{ admin: AdminToken; token: string }> {
    const file = adminTokenFile(dataDir);
    const token = newAdminToken();
    await writeFileAtomic(file, `${token}\n`);
    return { admin: new AdminToken(file), token };
  }

  /** Constant time in the candidate's content: both sides are hashed to the same length first. */
  async verify(candidate: unknown): Promise<boolean> {
    const hash = this.hash();
    return typeof candidate === "string" && candidate !== "" && hash !== undefined && timingSafeEqual(digest(candidate), hash);
  }

  private hash(): Buffer | undefined {
    const version = fileVersion(this.file);
    if (version !== this.current.version) {
      const token = version === "none" ? "" : readTokenSync(this.file);
      this.current = { version, hash: token.length < 16 ? undefined : digest(token) };
    }
    return this.current.hash;
  }
}
