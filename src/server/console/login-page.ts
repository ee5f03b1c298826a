// The login page: a plain form (no script), posted to /login with the admin token. Its addresses
// are relative to `root` (the way back to the console's root from the page's own address), so
// it also works behind a path prefix such as an editor's port forwarding.

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** `view`: the console's view (its #fragment) to go back to once logged in. */
export function loginPage(message?: string, root = "", view = ""): string {
  const notice = message ? `\n      <p class="login-error" role="alert">${escapeHtml(message)}</p>` : "";
  const back = view ? `\n      <input type="hidden" name="view" value="${escapeHtml(view)}">` : "";
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="same-origin">
    <title>Wisp console: log in</title>
    <link rel="stylesheet" href="${root}console/console.css">
  </head>
  <body class="login">
    <form class="login-card" method="post" action="${root}login">
      <h1>Wisp console</h1>${notice}
      <label for="token">Admin token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>${back}
      <button type="submit">Log in</button>
      <p class="hint">wisp-server prints a login link when it starts; the token is in the file <code>admin-token</code> of its data folder (default <code>~/.wisp</code>).</p>
    </form>
  </body>
</html>
`;
}
