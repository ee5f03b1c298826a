// An HTTP request with exactly the headers given, Host included (fetch sets its own Host).
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => Promise<unknown>;
}

export function rawRequest(origin: string, path: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const request = http.request(`${origin}${path}`, { method: init.method ?? "GET", headers: init.headers }, (response) => {
      let text = "";
      response.on("data", (d: Buffer) => (text += d.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text, json: async () => JSON.parse(text) as unknown }));
    });
    request.on("error", reject);
    request.end(init.body);
  });
}
