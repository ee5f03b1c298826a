// Every configured upstream and the models they serve. A model several upstreams serve has them
// as replicas; one whose id a local model already has is served as NAME/id.
import type { UpstreamStatus } from "../../core/api/upstream-status";
import { Upstream, type ListedModel, type UpstreamTiming } from "./upstream";
import { upstreamAuthorization, type UpstreamSpec } from "./upstream-config";
import { createTransport, disposeTransport, type UpstreamTransport } from "./upstream-transport";

export const DEFAULT_UPSTREAM_TIMING: UpstreamTiming = { refreshMs: 30_000, backoffMs: 500, checkTimeoutMs: 5_000 };

/** Where requests for one public model id go. */
export interface UpstreamRoute {
  /** The id clients use. */
  id: string;
  /** The id the upstreams know it by. */
  upstreamModel: string;
  /** What the first upstream listing it says of it. */
  listed: ListedModel;
  replicas: Upstream[];
}

export interface UpstreamModel extends ListedModel {
  /** The upstreams serving it, comma-separated. */
  owned_by: string;
}

export class UpstreamRegistry {
  readonly transport: UpstreamTransport = createTransport();
  private readonly upstreams: Upstream[];
  private turn = 0;

  /** `env` supplies the key-env variables; a missing one is an error now, not a 401 later. */
  constructor(specs: readonly UpstreamSpec[], env: Record<string, string | undefined>, private readonly isLocal: (id: string) => boolean, timing: UpstreamTiming = DEFAULT_UPSTREAM_TIMING) {
    this.upstreams = specs.map((spec) => new Upstream(spec, upstreamAuthorization(spec, env), this.transport, timing));
  }

  get size(): number {
    return this.upstreams.length;
  }

  /** First check of every upstream (so the first listing has their models), then periodic ones. */
  async start(): Promise<void> {
    await Promise.all(this.upstreams.map((u) => u.check()));
  }

  private publicId(upstream: Upstream, model: string): string {
    return this.isLocal(model) ? `${upstream.name}/${model}` : model;
  }

  routes(): UpstreamRoute[] {
    const byId = new Map<string, UpstreamRoute>();
    for (const upstream of this.upstreams) {
      for (const listed of upstream.listed) {
        const id = this.publicId(upstream, listed.id);
        const route = byId.get(id) ?? { id, upstreamModel: listed.id, listed, replicas: [] };
        route.replicas.push(upstream);
        byId.set(id, route);
      }
    }
    return [...byId.values()];
  }

  /** The route for a model id a request names, when an upstream serves it (and no local model is it). */
  resolve(id: string): UpstreamRoute | undefined {
    if (this.upstreams.length === 0 || this.isLocal(id)) return undefined;
    const { plain, prefixed } = this.routeMaps();
    const route = plain.get(id);
    if (route) return route;
    // NAME/id is a route only while a local model has that id (as routes() names it).
    const named = prefixed.get(id);
    return named && this.isLocal(named.upstreamModel) ? named : undefined;
  }

  /** What resolve() looks in: built when an upstream's model list changes, not per request. */
  private maps?: { listings: ListedModel[][]; plain: Map<string, UpstreamRoute>; prefixed: Map<string, UpstreamRoute> };

  private routeMaps(): { plain: Map<string, UpstreamRoute>; prefixed: Map<string, UpstreamRoute> } {
    // Every check of an upstream gives it a new list: the same lists mean the same routes.
    if (this.maps?.listings.every((listing, i) => listing === this.upstreams[i]!.listed)) return this.maps;
    const plain = new Map<string, UpstreamRoute>();
    const prefixed = new Map<string, UpstreamRoute>();
    for (const upstream of this.upstreams) {
      for (const listed of upstream.listed) {
        // Which of these ids is local is asked per request: local models come and go.
        const route = plain.get(listed.id) ?? { id: listed.id, upstreamModel: listed.id, listed, replicas: [] };
        route.replicas.push(upstream);
        plain.set(listed.id, route);
        const id = `${upstream.name}/${listed.id}`;
        prefixed.set(id, { id, upstreamModel: listed.id, listed, replicas: [upstream] });
      }
    }
    this.maps = { listings: this.upstreams.map((u) => u.listed), plain, prefixed };
    return this.maps;
  }

  list(): UpstreamModel[] {
    return this.routes().map((r) => ({ ...r.listed, id: r.id, owned_by: r.replicas.map((u) => u.name).join(",") }));
  }

  /** The healthy replica with the fewest outstanding requests (ties take turns), not one of `tried`. */
  pick(route: UpstreamRoute, tried: ReadonlySet<Upstream>): Upstream | undefined {
    const open = route.replicas.filter((u) => u.healthy && !tried.has(u));
    if (open.length === 0) return undefined;
    const start = this.turn++ % open.length;
    let best = open[start]!;
    for (let i = 1; i < open.length; i++) {
      const u = open[(start + i) % open.length]!;
      if (u.outstanding < best.outstanding) best = u;
    }
    return best;
  }

  status(): UpstreamStatus[] {
    return this.upstreams.map((u) => u.status());
  }

  dispose(): void {
    for (const u of this.upstreams) u.dispose();
    disposeTransport(this.transport);
  }
}
