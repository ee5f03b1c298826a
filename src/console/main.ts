// The web console page: Keys, Playground (chat and image), Usage and Models, one view at a time, chosen
// by the address's #fragment so each can be linked and reloaded.
import { ChatView } from "./chat-view";
import { ConsoleApi } from "./console-api";
import { h } from "./dom";
import { ImageView } from "./image-view";
import { KeysView } from "./keys-view";
import { ModelsView } from "./models-view";
import { UsageView } from "./usage-view";

type Route = "keys" | "chat" | "image" | "usage" | "models";
const routes: { route: Route; label: string }[] = [
  { route: "keys", label: "Keys" },
  { route: "chat", label: "Playground: chat" },
  { route: "image", label: "Playground: image" },
  { route: "usage", label: "Usage" },
  { route: "models", label: "Models" },
];

async function start(): Promise<void> {
  const api = await ConsoleApi.connect();
  const keys = new KeysView(api);
  const chat = new ChatView(api);
  const image = new ImageView(api);
  const usage = new UsageView(api);
  const models = new ModelsView(api);
  const views: Record<Route, HTMLElement> = { keys: keys.element, chat: chat.element, image: image.element, usage: usage.element, models: models.element };
  const links = new Map<Route, HTMLAnchorElement>();
  const nav = h("nav", { attrs: { "aria-label": "Console" } });
  for (const { route, label } of routes) {
    const link = h("a", { text: label, attrs: { href: `#${route}` } });
    links.set(route, link);
    nav.append(link);
  }
  const logout = h("button", { class: "secondary", text: "Log out", attrs: { type: "button" } });
  logout.addEventListener("click", () => void api.logout().finally(() => location.assign("login")));
  const main = h("main");
  document.body.replaceChildren(h("header", {}, h("h1", { text: "Wisp console" }), nav, logout), main);

  const loadModels = () =>
    api.models().then(
      (models) => {
        chat.setModels(models);
        image.setModels(models);
      },
      (error: Error) => main.prepend(h("p", { class: "errors", attrs: { role: "alert" }, text: `Could not list models: ${error.message}` })),
    );
  const show = () => {
    const route = (location.hash.slice(1) as Route) || "keys";
    const current = route in views ? route : "keys";
    for (const [r, link] of links) {
      if (r === current) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    if (current !== "keys") keys.hideSecret();
    main.replaceChildren(views[current]);
    if (current === "keys") void keys.load();
    if (current === "usage") void usage.load();
    if (current === "models") void models.load();
    if (current === "chat" || current === "image") void loadModels();
  };
  window.addEventListener("hashchange", show);
  show();
}

start().catch((error: Error) => {
  document.body.replaceChildren(h("main", {}, h("p", { class: "errors", attrs: { role: "alert" }, text: `The console could not start: ${error.message}` }), h("a", { text: "Log in", attrs: { href: "login" } })));
});
