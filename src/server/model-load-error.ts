/**
 * A model file llama.cpp could not load: not a GGUF file, one cut short (a copy or download still
 * under way, or interrupted), or gone since the folder was read. The server answers 500 naming
 * the model, its file and what to do, instead of "internal server error".
 */
export class ModelLoadError extends Error {
  constructor(readonly model: string, readonly file: string, cause: unknown) {
    super(
      `model ${model} could not be loaded from ${file}: ${reasonOf(cause)}. ` +
        "A file still being copied or downloaded, cut short, or not a GGUF model cannot be used: replace it, or remove it from the models folder.",
      { cause },
    );
  }
}

function reasonOf(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if ((cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return "the file is gone";
  // node-llama-cpp quotes the first bytes it read, which are binary here.
  if (/Invalid GGUF magic/.test(message)) return "it is not a GGUF file";
  // Its header read short: node-llama-cpp finds no architecture in the metadata.
  if (cause instanceof TypeError) return "its GGUF header is incomplete";
  // llama.cpp prints why on the server's error output (tensor data past the end of the file...).
  return `llama.cpp refused it (${message}; the server's log says why)`;
}

/**
 * An image model whose files could not be loaded (broken, or still being copied); `message` says
 * why, naming the server's files: the client is told the model only (errors.ts).
 */
export class ImageModelLoadError extends Error {
  constructor(readonly modelId: string, message: string) {
    super(message);
    this.name = "ImageModelLoadError";
  }
}
