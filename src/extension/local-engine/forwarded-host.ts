import * as vscode from "vscode";
import { hostToAllow } from "../../core/net/host-allowed";

/**
 * The editor's own name, when the browser reaches the local server through the editor's port
 * forwarding and the server would refuse that Host: in a browser-based editor (code-server) the
 * web console opens at https://EDITOR/proxy/PORT/, and the forwarding passes the browser's Host
 * (EDITOR) on. A desktop editor forwards to localhost on the user's machine, which is answered
 * already (and asking it would open a forward before anyone wants one).
 */
export async function forwardedHost(origin: string, bindHost: string): Promise<string | undefined> {
  if (vscode.env.uiKind !== vscode.UIKind.Web) return undefined;
  try {
    return hostToAllow((await vscode.env.asExternalUri(vscode.Uri.parse(origin))).toString(true), bindHost);
  } catch {
    // No forwarding known: the console opens at the origin itself.
    return undefined;
  }
}
