/**
 * A rejection thrown by another extension's code (VS Code's git extension refreshing a repository an
 * earlier suite deleted: `spawn git ENOENT`) lands in the same host but says nothing of Wisp.
 */
export function fromAnotherExtension(reason: unknown): boolean {
  const stack = typeof reason === "object" && reason !== null && typeof (reason as { stack?: unknown }).stack === "string" ? (reason as { stack: string }).stack : "";
  const frame = stack.split("\n").find((line) => line.trimStart().startsWith("at ")) ?? "";
  return /[\\/]extensions[\\/](?!wisp)[^\\/]+[\\/]dist[\\/]/.test(frame);
}
