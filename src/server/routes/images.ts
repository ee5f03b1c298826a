// POST /v1/images/generations: text-to-image on the ONNX diffusion models of the registry.
import { randomInt, randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { RoutePlugin, ServerDeps } from "../deps";
import { encodeImage, outputFormat } from "../engines/image/encode-image";
import { GenerationCancelledError, ImageQueueFullError } from "../engines/image/image-errors";
import { IMAGE_EXTENSIONS, IMAGE_LIMITS as L } from "../engines/image/image-limits";
import { ApiError, modelNotFound, serverBusy } from "../errors";
import type { ModelEntry } from "../models/registry";
import type { SchemaType } from "../json-schema-to-ts-provider";
import { upstreamForwarder } from "./upstream-forward";

/** Optional fields take null for absent, as the text routes do (clients send nulls they do not set). */
const orNull = <S extends object>(schema: S) => ({ anyOf: [schema, { type: "null" }] }) as const;

const dimension = orNull({ type: "integer", minimum: L.minSize, maximum: L.maxSize, multipleOf: L.sizeMultiple } as const);

const bodySchema = {
  type: "object",
  required: ["prompt"],
  properties: {
    model: orNull({ type: "string" } as const),
    prompt: { type: "string", maxLength: L.maxPromptChars },
    negative_prompt: orNull({ type: "string", maxLength: L.maxPromptChars } as const),
    width: dimension,
    height: dimension,
    // OpenAI's way to ask for a size ("auto": the model's own); width/height take precedence.
    size: orNull({ type: "string", pattern: "^([0-9]+x[0-9]+|auto)$" } as const),
    num_inference_steps: orNull({ type: "integer", minimum: L.minSteps, maximum: L.maxSteps } as const),
    guidance_scale: orNull({ type: "number", minimum: 0, maximum: L.maxGuidanceScale } as const),
    seed: orNull({ type: "integer", minimum: -1, maximum: L.maxSeed } as const),
    n: orNull({ type: "integer", minimum: 1, maximum: L.maxImages } as const),
    // Only inline images: this server does not host files to link to.
    response_format: orNull({ type: "string", enum: ["b64_json"] } as const),
    response_extension: orNull({ type: "string", enum: IMAGE_EXTENSIONS } as const),
    // OpenAI's names for the file format and its JPEG/WebP quality (response_extension wins).
    output_format: orNull({ type: "string", enum: ["png", "jpeg", "webp"] } as const),
    output_compression: orNull({ type: "integer", minimum: 0, maximum: 100 } as const),
    // Refused when true (below): the answer is one JSON body, never partial images.
    stream: orNull({ type: "boolean" } as const),
    // OpenAI's; transparent is refused (below): the models draw every pixel opaque.
    background: orNull({ type: "string", enum: ["auto", "opaque", "transparent"] } as const),
  },
} as const;

type ImageBody = SchemaType<typeof bodySchema>;

function resolveImageModel(deps: ServerDeps, id: string | undefined): ModelEntry {
  if (id === undefined) {
    const first = deps.registry.list("image")[0];
    if (!first) throw new ApiError(404, "no image model is installed: see GET /v1/models", "invalid_request_error", "model", "model_not_found");
    return first;
  }
  const entry = deps.registry.get(id);
  if (!entry) throw modelNotFound(id);
  if (entry.kind !== "image") throw new ApiError(400, `model '${id}' is a text model: use /v1/chat/completions or /v1/completions`, "invalid_request_error", "model", "wrong_model_kind");
  return entry;
}

/** width/height, else `size`; each one absent is the model's own (the pipeline knows it). `size`
 * goes through the same limits. */
function imageSize(body: ImageBody): { width?: number; height?: number } {
  const [sizeWidth, sizeHeight] = body.size && body.size !== "auto" ? body.size.split("x").map(Number) : [];
  const width = body.width ?? sizeWidth;
  const height = body.height ?? sizeHeight;
  for (const [name, value] of [["width", width], ["height", height]] as const) {
    const param = body[name] == null && sizeWidth !== undefined ? "size" : name;
    if (value !== undefined && (value < L.minSize || value > L.maxSize || value % L.sizeMultiple !== 0)) {
      throw new ApiError(400, `${name} must be a multiple of ${L.sizeMultiple} from ${L.minSize} to ${L.maxSize}, got ${value}`, "invalid_request_error", param);
    }
  }
  return { width, height };
}

/** Aborts when the client goes away before the answer is sent. */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}

/** POST /images/generations (under /v1). */
export const imageRoutes: RoutePlugin = async (app, { deps }) => {
  const engine = deps.imageEngine;

  app.post("/images/generations", { preValidation: upstreamForwarder(deps, "/images/generations"), schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body;
    if (body.prompt.trim() === "") throw new ApiError(400, "prompt must not be empty", "invalid_request_error", "prompt");
    if (body.stream === true) {
      throw new ApiError(400, "stream is not supported here: images come whole in one JSON answer (leave stream out)", "invalid_request_error", "stream", "unsupported_value");
    }
    if (body.background === "transparent") {
      throw new ApiError(400, "background 'transparent' is not supported here: the image models draw opaque images (leave background out, or auto or opaque)", "invalid_request_error", "background", "unsupported_value");
    }
    const entry = resolveImageModel(deps, body.model ?? undefined);
    const { width, height } = imageSize(body);
    const seed = body.seed == null || body.seed === -1 ? randomInt(0, L.maxSeed) : body.seed;
    const extension = body.response_extension ?? body.output_format ?? "png";
    // 0 asks for the smallest file: the encoders' lowest quality is 1.
    const quality = body.output_compression == null ? undefined : Math.max(1, body.output_compression);
    const params = {
      prompt: body.prompt,
      negativePrompt: body.negative_prompt ?? "",
      width,
      height,
      steps: body.num_inference_steps ?? L.defaultSteps,
      seed,
      guidanceScale: body.guidance_scale ?? undefined,
      count: body.n ?? 1,
    };

    let images;
    try {
      images = await engine.generate(entry.id, entry.path, params, { signal: disconnectSignal(reply) });
    } catch (error) {
      if (error instanceof ImageQueueFullError) throw serverBusy(error.message);
      if (error instanceof GenerationCancelledError) throw new ApiError(499, "the client closed the request", "invalid_request_error", null, "cancelled");
      throw error;
    }
    await deps.usage.served(request, { model: entry.id, images: images.length });
    const data = await Promise.all(
      images.map(async (image) => ({ b64_json: (await encodeImage(image, extension, quality)).toString("base64"), seed: image.seed })),
    );
    reply.header("x-wisp-seed", String(seed));
    return { id: `img-${randomUUID()}`, created: Math.floor(Date.now() / 1000), output_format: outputFormat(extension), data };
  });
};
