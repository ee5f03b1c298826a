// Which methods the app's routes answer on a path: a request with the wrong method (GET on
// /v1/chat/completions) is told to use the right one (405), not that no such route exists.
import type { RouteOptions } from "fastify";

export class RouteMethods {
  private readonly routes: { method: string; pattern: RegExp }[] = [];

  /** An onRoute hook: records each route as it is registered. */
  readonly record = (route: RouteOptions): void => {
    // ":id" is one path segment, "*" the rest of the path (find-my-way's syntax).
    const pattern = new RegExp(`^${route.url.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+").replace(/\*/g, ".*")}$`);
    for (const method of [route.method].flat()) if (method !== "HEAD") this.routes.push({ method, pattern });
  };

  /** The methods a route answers on `url` (its query ignored), in the order registered. */
  allowed(url: string): string[] {
    const path = url.split("?")[0]!;
    return [...new Set(this.routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  }
}
