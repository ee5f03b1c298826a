/**
 * What an exit code above 128 means: a POSIX shell reports a command a signal ended as 128 + the
 * signal's number. Without the word, a model reads 137 as the program's own error and guesses.
 */
const signals: Readonly<Record<number, { readonly name: string; readonly meaning: string }>> = {
  2: { name: "SIGINT", meaning: "interrupted, as Ctrl+C does" },
  6: { name: "SIGABRT", meaning: "it aborted, often on a failed assertion" },
  9: { name: "SIGKILL", meaning: "often the out-of-memory killer" },
  11: { name: "SIGSEGV", meaning: "a crash (segmentation fault)" },
  13: { name: "SIGPIPE", meaning: "what read its output went away" },
  15: { name: "SIGTERM", meaning: "asked to stop" },
};

/** "killed by SIGKILL: often the out-of-memory killer"; just the name for a signal not listed. */
export function signalMeaning(name: string): string {
  const known = Object.values(signals).find((s) => s.name === name);
  return known ? `killed by ${name}: ${known.meaning}` : `killed by ${name}`;
}

/** "exit code 137 (killed by SIGKILL: often the out-of-memory killer)"; the bare code when it names no signal. */
export function describeExitCode(code: number): string {
  const known = code > 128 ? signals[code - 128] : undefined;
  return known ? `exit code ${code} (${signalMeaning(known.name)})` : `exit code ${code}`;
}
