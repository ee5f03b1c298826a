// The console playground's image view (src/console/image-view.ts) in the test page, on a stand-in
// for the server: the first Generate makes an image (a 1x1 PNG, seed 7), later ones are refused
// (the third only once consoleImage.release() is called).
import type { ConsoleApi } from "../../../../src/console/console-api";
import { ImageView } from "../../../../src/console/image-view";

const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
let calls = 0;
let release = () => {};

function v1(): Promise<Response> {
  calls++;
  if (calls === 1) return Promise.resolve(Response.json({ data: [{ b64_json: pixel, seed: 7 }], output_format: "png" }));
  const refused = () => Response.json({ error: { message: "the image model failed to load", type: "server_error" } }, { status: 500 });
  if (calls === 3) return new Promise((resolve) => (release = () => resolve(refused())));
  return Promise.resolve(refused());
}

const view = new ImageView({ baseUrl: "http://127.0.0.1/v1", v1 } as unknown as ConsoleApi);
view.setModels([{ id: "sd", kind: "image" }]);
document.body.replaceChildren(view.element);

Object.assign(window, { consoleImage: { release: () => release() } });
