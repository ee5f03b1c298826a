// An HTTP request with the headers given, Host included (fetch sets its own Host): a browser's
// request as it reaches a replica through the balancer.
import http from "node:http";

export interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => Promise<unknown>;
}

export function send(origin: string, path: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${path}`, { method: init.method ?? "GET", headers: init.headers }, (response) => {
      let text = "";
      response.on("data", (d: Buffer) => (text += d.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text, json: async () => JSON.parse(text) as unknown }));
    });
    request.on("error", reject);
    request.end(init.body);
  });
}
