import { formatSize, leavesSideToModel, type ImageSize } from "./image-size";

/** A failed image request as the client reports it (the fields of a WispError). */
export interface ImageFailure {
  /** The client's error kind: no-key, bad-key, unknown-model, bad-request, unreachable, timeout, … */
  readonly kind: string;
  readonly message: string;
  readonly status?: number;
  /** The request field the server named. */
  readonly param?: string;
  readonly code?: string;
}

/** What was asked for, to say what to change. */
export interface ImageAttempt {
  readonly model: string;
  readonly size: ImageSize;
  readonly baseUrl: string;
  /** The base URL is on this machine, so Wisp: Start Local Server can help. */
  readonly local: boolean;
  readonly timeoutSeconds: number;
}

/** Buttons offered with the message; each runs what its name says. */
export type ImageErrorAction = "Set API Key" | "Select Model" | "Start Local Server" | "Open Settings" | "Try Again" | "Show Logs";

export interface ImageErrorReport {
  readonly message: string;
  readonly actions: readonly ImageErrorAction[];
  /** The setting that Open Settings shows. */
  readonly setting?: string;
}

const sizeParams = new Set(["width", "height", "size"]);

/** One readable message for a failed generation, and the actions that can fix it. */
export function describeImageError(failure: ImageFailure, attempt: ImageAttempt): ImageErrorReport {
  switch (failure.kind) {
    case "no-key":
    case "bad-key":
      return { message: failure.message, actions: ["Set API Key"] };
    case "unknown-model":
      return {
        message: `The image model "${attempt.model}" is not available on ${attempt.baseUrl}. Choose one the server has with Wisp: Select Model.`,
        actions: ["Select Model"],
      };
    case "unreachable":
      return {
        message: failure.message,
        actions: attempt.local ? ["Start Local Server", "Open Settings"] : ["Open Settings"],
        setting: "wisp.baseUrl",
      };
    case "timeout":
      return {
        message:
          `No image came back from ${attempt.baseUrl} within ${attempt.timeoutSeconds} s. ` +
          "Try fewer steps or a smaller size, or allow more time (wisp.image.timeoutSeconds).",
        actions: ["Open Settings", "Try Again"],
        setting: "wisp.image",
      };
    case "rate-limited":
      return { message: failure.message, actions: ["Try Again"] };
    case "bad-request":
      return describeRefusal(failure, attempt);
    default:
      return { message: failure.message, actions: ["Show Logs"] };
  }
}

/** A 4xx: the model (a text model, most likely), the size, the prompts, or something else the server names. */
function describeRefusal(failure: ImageFailure, attempt: ImageAttempt): ImageErrorReport {
  const why = serverReason(failure.message);
  if (failure.param === "model" || failure.code === "wrong_model_kind" || failure.code === "model_not_found") {
    return {
      message: `"${attempt.model}" is not an image model on ${attempt.baseUrl} (${why}). Choose an image model with Wisp: Select Model.`,
      actions: ["Select Model"],
    };
  }
  if (failure.param !== undefined && sizeParams.has(failure.param)) {
    return {
      message:
        leavesSideToModel(attempt.size)
          ? `The server wants a size where the settings leave it to the model (${why}). Choose a size, or set wisp.image.width and wisp.image.height.`
          : `The server refused the size ${formatSize(attempt.size)} (${why}). Choose another size.`,
      actions: ["Try Again", "Open Settings"],
      setting: "wisp.image",
    };
  }
  if (failure.param === "prompt") {
    // Nothing in the settings makes a prompt: Open Settings would lead nowhere.
    return { message: `The server refused the prompt (${why}). Shorten or change it, and try again.`, actions: ["Try Again"] };
  }
  if (failure.param === "negative_prompt") {
    return {
      message: `The server refused the negative prompt (${why}). Change it in wisp.image.negativePrompt (or the Advanced… step).`,
      actions: ["Open Settings", "Try Again"],
      setting: "wisp.image.negativePrompt",
    };
  }
  return { message: failure.message, actions: ["Open Settings"], setting: "wisp.image" };
}

/** The server's own words, without the "URL refused the request (400):" that the client put first. */
function serverReason(message: string): string {
  const match = /refused the request \(\d{3}\): (.*)$/s.exec(message);
  return (match?.[1] ?? message).replace(/\.$/, "");
}
