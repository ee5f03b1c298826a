import assert from "node:assert/strict";
import { fileLines } from "../../../src/server/engines/text/line-candidates";
import { renamedLines } from "../../../src/server/engines/text/renamed-lines";

// Lists as projects write them: a Python enum of status codes, a form's fields, re-exports, URL
// routes, option objects.
const STATUS = ["class codes(IntEnum):", '    NOT_FOUND = 404, "Not Found"', '    SERVICE_UNAVAILABLE = 503, "Service Unavailable"'].join("\n");
const FORM = ["    def clean(self):", '        url_up = self.cleaned_data.get("url_up")'].join("\n");
const ROUTES = ["urlpatterns = [", '    path("ping/", views.ping, name="hc-ping"),'].join("\n");

describe("renamedLines: a sibling line with its name changed to the cursor line's", () => {
  it("changes the name in each spelling the sibling uses: as it is, in words, in another case", () => {
    assert.deepEqual(renamedLines(`${STATUS}\n    GATEWAY_TIMEOUT = 504, `, "\n"), ['"Gateway Timeout"'], "numbers may differ, the name says the words");
    assert.deepEqual(renamedLines(`${FORM}\n        url_down = self.cleaned_data.`, "\n"), ['get("url_down")']);
    assert.deepEqual(renamedLines(`${ROUTES}\n    path("log/", `, "\n]"), ['views.log, name="hc-log"),'], "a name inside a string too");
    assert.deepEqual(renamedLines("const twitter = require('./twitter');\nconst gcenter = ", "\n"), ["require('./gcenter');"]);
    assert.deepEqual(renamedLines("  maxRetries: env.MAX_RETRIES,\n  readTimeout: ", "\n"), ["env.READ_TIMEOUT,"], "upper case from camelCase");
    assert.deepEqual(renamedLines("HTTPTimeout = make('http-timeout')\nReadLimit = ", "\n"), ["make('read-limit')"], "acronyms and kebab-case");
  });

  it("finds the sibling below the cursor too, the nearest first", () => {
    const suffix = "\nexport {Mercator} from './Projection.Mercator.js';\nexport {Sphere} from './Projection.Sphere.js';\n";
    assert.deepEqual(renamedLines("export {LonLat} ", suffix), ["from './Projection.LonLat.js';"]);
    assert.deepEqual(renamedLines("export {Sphere} from './Projection.Sphere.js';\n\nexport {A} from './a.js';\nexport {LonLat} ", suffix), ["from './Projection.LonLat.js';"], "the line above is nearer");
  });

  it("offers nothing where the sibling does not say its name again, or no line has the cursor line's shape", () => {
    assert.deepEqual(renamedLines("    width = compute(a)\n    height = ", "\n"), [], "a plain copy is line-candidates' work");
    assert.deepEqual(renamedLines("    url_up = form.get('url_up')\n    url_down = other.", "\n"), [], "another shape before the cursor");
    assert.deepEqual(renamedLines("    url_up = form.get('url_up')\n    url_do", "\n"), [], "the name is not whole yet");
    assert.deepEqual(renamedLines("logger = logging.getLogger('logger')\nif ", "\n"), [], "a keyword is not a name");
    assert.deepEqual(renamedLines("    url_up = form.get('url_up')\n    url_up = form.", "\n"), [], "the same name is a plain copy");
  });

  it("is the first line fileLines offers, beside the copies, and what the cursor's line has after it comes off", () => {
    const { lines } = fileLines(`${FORM}\n        url_down = self.cleaned_data.get("`, '")\n');
    assert.equal(lines[0], "url_down");
    assert.ok(lines.includes("url_up"), "the copy stays for the model to choose");
  });
});
