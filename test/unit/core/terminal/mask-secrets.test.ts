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
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nnext", "[masked]\nnext"],
  ];
  for (const [input, expected] of cases) {
    it(`masks ${JSON.stringify(input.slice(0, 40))}`, () => assert.equal(maskSecrets(input), expected));
  }

  it("leaves ordinary output alone", () => {
    const text = "npm ERR! Missing script: \"tset\"\nAuthor: Wisp Test <test@wisp.invalid>\nPATH=/usr/bin\n  at Object.<anonymous> (/work/cart.test.js:3:8)\nexit code 1";
    assert.equal(maskSecrets(text), text);
  });
});
