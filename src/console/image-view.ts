// Playground, image: prompt, negative prompt, size, steps and seed for an image model; Generate
// shows the image and the seed used; View code shows the same request as code.
import { buildImageRequest, imageSizes, type ImageSetup } from "../core/playground/image-request";
import { CodeView } from "./code-view";
import { ConsoleApi, type ModelInfo } from "./console-api";
import { field, h, option, refocus } from "./dom";

export class ImageView {
  readonly element: HTMLElement;
  private lastSent: Record<string, unknown> | undefined;
  private readonly model = h("select", { attrs: { name: "image_model" } });
  private readonly prompt = h("textarea", { attrs: { rows: 3, name: "prompt", placeholder: "a lighthouse at dusk, watercolor" } });
  private readonly negative = h("textarea", { attrs: { rows: 2, name: "negative_prompt", placeholder: "what the image should not show" } });
  private readonly size = h("select", { attrs: { name: "size" } }, ...imageSizes.map((s) => option(s)));
  private readonly steps = h("input", { attrs: { type: "text", name: "steps", inputmode: "numeric" } });
  private readonly seed = h("input", { attrs: { type: "text", name: "seed", inputmode: "numeric", placeholder: "random" } });
  private readonly generate = h("button", { text: "Generate", attrs: { type: "submit" } });
  private readonly status = h("p", { class: "status", attrs: { role: "status" } });
  private readonly errors = h("ul", { class: "errors", attrs: { role: "alert" } });
  private readonly result = h("figure", { class: "image-result" });
  private readonly codeView: CodeView;

  constructor(private readonly api: ConsoleApi) {
    this.size.value = "256x256";
    this.steps.value = "4";
    this.codeView = new CodeView(api.baseUrl, {
      current: () => {
        const built = buildImageRequest(this.setup());
        if (built.ok) return { request: { endpoint: "images.generations", body: built.body }, caption: "The request Generate makes:" };
        if (this.lastSent) return { request: { endpoint: "images.generations", body: this.lastSent }, caption: "The request last sent:" };
        return { problem: built.errors.map((e) => e.message).join("; ") };
      },
    });
    const form = h(
      "form",
      { class: "panel setup", attrs: { "aria-label": "Image setup" }, on: { submit: (e) => (e.preventDefault(), void this.run()) } },
      h("h2", { text: "Image" }),
      field("Model", this.model),
      field("Prompt", this.prompt),
      field("Negative prompt", this.negative),
      h("div", { class: "grid" }, field("Size", this.size), field("Steps", this.steps, "1-100"), field("Seed", this.seed, "empty: random")),
      h("div", { class: "row" }, this.generate),
      this.errors,
      this.status,
    );
    const output = h("section", { class: "panel conversation", attrs: { "aria-label": "Generated image" } }, h("h2", { text: "Result" }), this.result, h("h3", { text: "Code" }), this.codeView.element);
    this.element = h("div", { class: "playground" }, form, output);
    this.element.addEventListener("input", () => this.codeView.refresh());
    this.element.addEventListener("change", () => this.codeView.refresh());
  }

  setModels(models: readonly ModelInfo[]): void {
    const images = models.filter((m) => m.kind === "image");
    this.model.replaceChildren(...images.map((m) => option(m.id)));
    this.status.textContent = images.length === 0 ? "No image model is installed: put a diffusers-layout ONNX folder in the models folder." : "";
    this.codeView.refresh();
  }

  private setup(): ImageSetup {
    return { model: this.model.value, prompt: this.prompt.value, negativePrompt: this.negative.value, size: this.size.value, steps: this.steps.value, seed: this.seed.value };
  }

  private async run(): Promise<void> {
    const built = buildImageRequest(this.setup());
    if (!built.ok) return void this.errors.replaceChildren(...built.errors.map((e) => h("li", { text: e.message })));
    this.errors.replaceChildren();
    this.lastSent = built.body;
    this.generate.disabled = true;
    this.status.textContent = "generating…";
    const started = performance.now();
    try {
      const response = await this.api.v1("POST", "/images/generations", built.body);
      if (!response.ok) throw await ConsoleApi.failure(response);
      const body = (await response.json()) as { data: { b64_json: string; seed?: number }[]; output_format?: string };
      const first = body.data[0];
      if (!first) throw new Error("the server returned no image");
      const type = body.output_format ?? "png";
      const image = h("img", { attrs: { src: `data:image/${type};base64,${first.b64_json}`, alt: this.prompt.value } });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      this.result.replaceChildren(image, h("figcaption", { text: `seed ${first.seed ?? "?"} · ${seconds} s` }));
      this.status.textContent = "";
    } catch (error) {
      this.errors.replaceChildren(h("li", { text: (error as Error).message }));
      // The earlier image, left under Result, would read as this prompt's.
      this.result.replaceChildren();
      this.status.textContent = "";
    } finally {
      this.generate.disabled = false;
      refocus(this.generate);
    }
  }
}
