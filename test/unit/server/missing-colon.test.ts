import assert from "node:assert/strict";
import { lineCandidates } from "../../../src/server/engines/text/line-candidates";
import { missingColon } from "../../../src/server/engines/text/missing-colon";

const python = "from django import forms\n\n\ndef view(request):\n";

describe("missingColon: a Python header ends with its colon", () => {
  it("refuses a line that ends a compound statement's header without a colon", () => {
    assert.equal(missingColon(`${python}    try:\n        pass\n    except Validat`)("ionError"), true);
    assert.equal(missingColon(`${python}    try:\n        pass\n    except Validat`)("ionError:"), false);
    assert.equal(missingColon(`${python}    if for`)('m.cleaned_data["value"]'), true);
    assert.equal(missingColon(`${python}    if for`)("m.is_valid(): return"), false, "a one-line body after the colon");
  });

  it("allows a header that goes on below: an open bracket, a backslash", () => {
    assert.equal(missingColon(`${python}    if (a and`)(" b"), false);
    assert.equal(missingColon(`${python}    with open(path) as f, \\`)(""), false);
    assert.equal(missingColon(`${python}    if x`)("[':']"), true, "a colon inside brackets or a string is not the header's");
    assert.equal(missingColon(`${python}    while n // 2`)(" > k:  # halve (again"), false, "`//` divides, `#` comments");
    assert.equal(missingColon(`${python}    while n // 2`)(" > k  # halve: again"), true);
  });

  it("leaves other languages and a comprehension's own `if` line alone", () => {
    assert.equal(missingColon("import x from 'y';\n\nif (ok")(") return;"), false);
    assert.equal(missingColon(`${python}    items = [x for x in xs\n             if x`)(" > 0"), false);
  });

  it("keeps the copy without a colon out of the candidates", () => {
    const prefix = `${python}    raise ValidationError\n    try:\n        pass\n    except Validat`;
    assert.deepEqual(lineCandidates(prefix, "\n"), []);
  });
});
