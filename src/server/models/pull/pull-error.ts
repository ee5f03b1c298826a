/** Why a pull failed, for callers that react differently (the extension's buttons, the CLI's exit). */
export type PullErrorKind = "bad-source" | "unreachable" | "http" | "not-gguf" | "checksum" | "size" | "disk-full" | "cancelled" | "busy" | "io";

/** A pull that failed with a message a user can act on. */
export class PullError extends Error {
  override readonly name = "PullError";
  constructor(readonly kind: PullErrorKind, message: string) {
    super(message);
  }
}
