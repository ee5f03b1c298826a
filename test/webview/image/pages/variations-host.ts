// A stand-in for VS Code's webview API, set before the variations page's script asks for it.
export const posted: unknown[] = [];
Object.assign(window, { acquireVsCodeApi: () => ({ postMessage: (m: unknown) => posted.push(m) }), variationsPage: { posted: () => posted } });
