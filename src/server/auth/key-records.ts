// API keys as the server sees them, wherever they are kept (keys.json or the database).
import type { KeyVerifier } from "./authenticate";

export interface KeyInfo {
  id: string;
  name: string;
  /** The first characters of the secret, to recognise a key in listings. */
  prefix: string;
  /** Seconds since the epoch. */
  created: number;
  revoked?: number;
}

export interface KeyRecords extends KeyVerifier {
  /** Creates a key; the returned secret is shown once and never stored. */
  create(name: string): Promise<{ key: KeyInfo; secret: string }>;
  list(): Promise<KeyInfo[]>;
  /** Marks a key revoked; false when no such key. */
  revoke(id: string): Promise<boolean>;
}
