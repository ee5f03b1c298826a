import assert from "node:assert/strict";
import OpenAI from "openai";
import { createOpenApiValidator } from "../helpers/openapi";
import { describeImage, generate, IMAGE_MODEL, imageBytes } from "./images-helpers";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const openapi = createOpenApiValidator();

describe("POST /v1/images/generations", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("lists the generated default image model beside the text model", async () => {
    const models = await server.client.models.list();
    assert.deepEqual(models.data.map((m) => m.id).sort(), [TEXT_MODEL, IMAGE_MODEL].sort());
  });

  for (const [extension, format] of [["png", "png"], ["jpg", "jpeg"], ["jpeg", "jpeg"], ["webp", "webp"]] as const) {
    it(`returns a ${extension} of exactly the asked size`, async () => {
      const { body } = await generate(server.client, { response_extension: extension, width: 96, height: 64 });
      openapi.assertValid("ImagesResponse", body);
      assert.equal(body.data!.length, 1);
      assert.deepEqual(await describeImage(imageBytes(body)), { format, width: 96, height: 64 });
    });
  }

  it("returns the format OpenAI's output_format names, at the quality output_compression asks", async () => {
    for (const format of ["jpeg", "webp", "png"] as const) {
      const { body } = await generate(server.client, { output_format: format, width: 96, height: 64 });
      assert.equal(body.output_format, format);
      assert.deepEqual(await describeImage(imageBytes(body)), { format, width: 96, height: 64 });
    }
    const sizeAt = async (output_compression: number) => imageBytes((await generate(server.client, { output_format: "jpeg", output_compression, width: 256, height: 256 })).body).length;
    const [small, large] = [await sizeAt(5), await sizeAt(100)];
    assert.ok(small < large / 2, `output_compression 5 gave ${small} bytes, 100 gave ${large}`);
  });

  it("honours sizes from 64 up to the limit and OpenAI's `size` field", async () => {
    const tall = await generate(server.client, { width: 64, height: 256, num_inference_steps: 1 });
    assert.deepEqual(await describeImage(imageBytes(tall.body)), { format: "png", width: 64, height: 256 });
    const sized = await generate(server.client, { width: undefined, height: undefined, size: "256x512" as never, num_inference_steps: 1 });
    assert.deepEqual(await describeImage(imageBytes(sized.body)), { format: "png", width: 256, height: 512 });
  });

  it("leaves a dimension the request does not name to the model, `size: \"auto\"` both", async () => {
    const wide = await generate(server.client, { width: 128, height: undefined, num_inference_steps: 1 });
    assert.deepEqual(await describeImage(imageBytes(wide.body)), { format: "png", width: 128, height: 256 }, "the default model's own side is 256");
    const auto = await generate(server.client, { width: undefined, height: 64, size: "auto" as never, num_inference_steps: 1 });
    assert.deepEqual(await describeImage(imageBytes(auto.body)), { format: "png", width: 256, height: 64 });
  });

  it("takes OpenAI's background auto and opaque (what the models draw)", async () => {
    for (const background of ["auto", "opaque"] as const) {
      const { body } = await generate(server.client, { background, num_inference_steps: 1 });
      assert.equal(body.data?.length, 1, background);
    }
  });

  it("takes null for every optional field as the field left out, as the text routes do", async () => {
    const optional = ["model", "negative_prompt", "width", "height", "size", "num_inference_steps", "guidance_scale", "seed", "n", "response_format", "response_extension", "output_format", "output_compression", "stream", "background"];
    const response = await server.fetch("/v1/images/generations", { json: { prompt: "a red square", ...Object.fromEntries(optional.map((name) => [name, null])) } });
    const body = (await response.json()) as OpenAI.Images.ImagesResponse;
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.data?.length, 1);
    assert.deepEqual(await describeImage(imageBytes(body)), { format: "png", width: 256, height: 256 });
    // A wrong type still says what the field takes, not "or null".
    const wrong = await server.fetch("/v1/images/generations", { json: { prompt: "a red square", n: "two" } });
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as { error: { message: string } }).error.message, "n must be integer");
  });

  it("gives identical bytes for the same seed and inputs, and reports the seed", async () => {
    const first = await generate(server.client, { seed: 1234 });
    const second = await generate(server.client, { seed: 1234 });
    assert.equal(first.seedHeader, "1234");
    assert.ok(imageBytes(first.body).equals(imageBytes(second.body)));
  });

  it("changes the image with the seed, the prompt and the negative prompt", async () => {
    const base = imageBytes((await generate(server.client)).body);
    const variants = {
      seed: await generate(server.client, { seed: 8 }),
      prompt: await generate(server.client, { prompt: "a red bicycle in the rain" }),
      negative: await generate(server.client, { negative_prompt: "blurry, low quality" }),
    };
    for (const [name, variant] of Object.entries(variants)) {
      assert.ok(!imageBytes(variant.body).equals(base), `${name} did not change the image`);
    }
  });

  it("picks a random seed for -1 and reports it so the image can be reproduced", async () => {
    const random = await generate(server.client, { seed: -1 });
    const seed = Number(random.seedHeader);
    assert.ok(Number.isInteger(seed) && seed >= 0, `x-wisp-seed: ${random.seedHeader}`);
    assert.equal((random.body.data![0] as { seed?: number }).seed, seed);
    const replay = await generate(server.client, { seed });
    assert.ok(imageBytes(replay.body).equals(imageBytes(random.body)));
  });

  it("returns n different images, image i from seed + i", async () => {
    const { body } = await generate(server.client, { n: 3, seed: 100 });
    openapi.assertValid("ImagesResponse", body);
    const images = [0, 1, 2].map((i) => imageBytes(body, i));
    assert.equal(new Set(images.map((b) => b.toString("base64"))).size, 3);
    const third = await generate(server.client, { seed: 102 });
    assert.ok(images[2]!.equals(imageBytes(third.body)));
    for (const bytes of images) assert.deepEqual(await describeImage(bytes), { format: "png", width: 64, height: 64 });
  });

  const badRequests: [string, Record<string, unknown>, string][] = [
    ["a width that is not a multiple of 8", { width: 100 }, "width"],
    ["a height above the limit", { height: 2048 }, "height"],
    ["a width below the limit", { width: 32 }, "width"],
    ["an unusable size", { width: undefined, height: undefined, size: "100x64" }, "size"],
    ["zero steps", { num_inference_steps: 0 }, "num_inference_steps"],
    ["too many steps", { num_inference_steps: 101 }, "num_inference_steps"],
    ["an empty prompt", { prompt: "   " }, "prompt"],
    ["an unknown extension", { response_extension: "gif" }, "response_extension"],
    ["a url response format", { response_format: "url" }, "response_format"],
    ["an output_format OpenAI does not have", { output_format: "gif" }, "output_format"],
    ["output_compression above 100", { output_compression: 101 }, "output_compression"],
    ["stream: true (images come whole)", { stream: true }, "stream"],
    ["a transparent background (the models draw opaque images)", { background: "transparent" }, "background"],
    ["a background OpenAI does not have", { background: "blue" }, "background"],
    ["n = 0", { n: 0 }, "n"],
    ["n above the limit", { n: 5 }, "n"],
    ["a seed below -1", { seed: -2 }, "seed"],
    ["a text model", { model: TEXT_MODEL }, "model"],
  ];
  for (const [what, fields, param] of badRequests) {
    it(`answers 400 with param ${param} for ${what}`, async () => {
      const error = await generate(server.client, fields).then(
        () => assert.fail("expected a 400"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, param);
      assert.equal(error.type, "invalid_request_error");
      assert.ok(error.message.length > 0);
    });
  }

  it("answers 404 for an unknown model", async () => {
    const error = await generate(server.client, { model: "no-such-model" }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.NotFoundError, String(error));
    assert.equal(error.param, "model");
  });

  it("keeps answering /v1/models while a large image is generated", async () => {
    let generationDone = false;
    const generation = generate(server.client, { width: 1024, height: 1024, num_inference_steps: 60 }).then((r) => {
      generationDone = true;
      return r;
    });
    for (let i = 0; i < 5; i++) {
      const models = await server.client.models.list();
      assert.ok(models.data.some((m) => m.id === IMAGE_MODEL));
    }
    assert.equal(generationDone, false, "the generation finished before the model listings: it did not overlap them");
    const { body } = await generation;
    assert.deepEqual(await describeImage(imageBytes(body)), { format: "png", width: 1024, height: 1024 });
  });
});
