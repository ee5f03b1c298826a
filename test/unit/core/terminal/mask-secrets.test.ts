import assert from "node:assert/strict";
import { maskSecrets } from "../../../../src/core/terminal/mask-secrets";

describe("masking secrets in terminal text", () => {
  const cases: [string, string][] = [
    ["export GITHUB_TOKEN=ghx_notaknownshape123", "export GITHUB_TOKEN=[masked]"],
    ['DB_PASSWORD="hunter2 with spaces" npm start', 'DB_PASSWORD=[masked] npm start'],
    ['{"apiKey": "abc123", "name": "cart"}', '{"apiKey": [masked], "name": "cart"}'],
    ["aws_secret_access_key: wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key: [masked]"],
    ["deploy --token s3cr3t-value --env prod", "deploy --token [masked] --env prod"],
    ["curl -H 'Authorization: Bearer abc.def.ghi' https://api", "curl -H 'Authorization: Bearer [masked]' https://api"],
    ["git clone https://alice:p4ssw0rd@git.example.com/r.git", "git clone https://alice:[masked]@git.example.com/r.git"],
    ["token ghp_0123456789abcdefghijABCDEFGHIJ012345 used", "token [masked] used"],
    ["key AKIAIOSFODNN7EXAMPLE here", "key [masked] here"],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt [masked]"],
    ["OPENAI key sk-proj-abcdefghijklmnop1234", "OPENAI key [masked]"],
    ["curl -H 'X-Api-Key: abcd1234' https://api", "curl -H 'X-Api-Key: [masked]' https://api"],
    ["serve --api-key abcd1234 --port 80", "serve --api-key [masked] --port 80"],
    ["API-KEY=abcd1234", "API-KEY=[masked]"],
    ["export GH_PAT=abcd1234", "export GH_PAT=[masked]"],
    ["curl -u admin:hunter2 https://x", "curl -u admin:[masked] https://x"],
    ["curl --user=admin:hunter2 https://x", "curl --user=admin:[masked] https://x"],
    ["pull with hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 ok", "pull with [masked] ok"],
    // The short names of .env files, cat .env or env printed them as they were.
    ["DB_PASS=hunter2\nMYSQL_PWD=hunter2\nREDIS_AUTH=hunter2\nRAILS_MASTER_KEY=abcd1234\nAPP_KEY=base64:abcd1234", "DB_PASS=[masked]\nMYSQL_PWD=[masked]\nREDIS_AUTH=[masked]\nRAILS_MASTER_KEY=[masked]\nAPP_KEY=[masked]"],
    // .npmrc: a registry's token (a UUID, npm's older tokens) or password after the registry's URL.
    ["//registry.npmjs.org/:_authToken=1c2e3f40-aaaa-bbbb-cccc-1234567890ab", "//registry.npmjs.org/:_authToken=[masked]"],
    ["//npm.corp.example/api/npm/:_password=aHVudGVyMg==", "//npm.corp.example/api/npm/:_password=[masked]"],
    // A URL's query after &, up to the next parameter.
    ["GET /login?user=bob&password=hunter2&next=/cart HTTP/1.1", "GET /login?user=bob&password=[masked]&next=/cart HTTP/1.1"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nnext", "[masked]\nnext"],
  ];
  for (const [input, expected] of cases) {
    it(`masks ${JSON.stringify(input.slice(0, 40))}`, () => assert.equal(maskSecrets(input), expected));
  }

  it("leaves ordinary output alone", () => {
    const text = "npm ERR! Missing script: \"tset\"\nAuthor: Wisp Test <test@wisp.invalid>\nPATH=/usr/bin\nMY_PATH=/opt\nPATTERN=x\nPWD=/work/cart\nOLDPWD=/work\npass: 12\nTests_passed: 12\nBYPASS=1\nuv run -u 3\nssh -o User=git host\n  at Object.<anonymous> (/work/cart.test.js:3:8)\nexit code 1";
    assert.equal(maskSecrets(text), text);
  });

  it("leaves alone a name with PASS, PWD or AUTH in its middle, which env and a front end's .env print (the short forms name a secret only at the name's end)", () => {
    const text = "SSH_AUTH_SOCK=/tmp/ssh-XYZ/agent.1234\nREACT_APP_FIREBASE_AUTH_DOMAIN=shop-1234.firebaseapp.com\nKEYCLOAK_AUTH_SERVER_URL=https://kc.example.com/auth\nDB_PASS_FILE=/run/secrets/db\nVITE_AUTH_REDIRECT: http://localhost:5173/callback";
    assert.equal(maskSecrets(text), text);
    // At the name's end they still are secrets.
    assert.equal(maskSecrets("REDIS_AUTH=hunter2 DB_PASS=hunter2 MYSQL_PWD=hunter2"), "REDIS_AUTH=[masked] DB_PASS=[masked] MYSQL_PWD=[masked]");
  });

  it("reads a long line of name or scheme characters (--a--a…, TOKENTOKEN…, 200 KB) at once, as a streamed command's output line may be: each match attempt no longer scans the rest of the text", function () {
    // A hang guard, not a timing: the old patterns took minutes on these, the new ones milliseconds.
    this.timeout(10_000);
    for (const text of ["--a".repeat(66_000), "TOKEN".repeat(40_000), "x-y.z+".repeat(33_000)]) assert.equal(maskSecrets(text), text);
    assert.equal(maskSecrets(`${"--a".repeat(1_000)} --api-token hunter2 https://bob:pw@example.com`), `${"--a".repeat(1_000)} --api-token [masked] https://bob:[masked]@example.com`);
  });
});
