import assert from "node:assert/strict";
import { identifierParts, searchTerms } from "../../../../src/core/context/identifiers";

describe("search terms", () => {
  it("splits identifiers in every casing into their words", () => {
    assert.deepEqual(identifierParts("parseHTTPResponse2"), ["parse", "http", "response2"]);
    assert.deepEqual(identifierParts("PRICE_ROUNDING"), ["price", "rounding"]);
    assert.deepEqual(identifierParts("shipping_cost"), ["shipping", "cost"]);
  });

  it("keeps whole identifiers and their parts, and drops stop words", () => {
    assert.deepEqual(searchTerms("where is roundPrice used?"), ["where", "roundprice", "round", "price"].filter((t) => t !== "where"));
    assert.deepEqual(searchTerms("how does this work"), ["work"]);
  });

  it("takes words of any script whole: Größe, скидка, e + U+0301 as é", () => {
    assert.deepEqual(searchTerms("Wo wird die Größe berechnet?"), ["wo", "wird", "die", "größe", "berechnet"]);
    assert.deepEqual(searchTerms("где считается скидка"), ["где", "считается", "скидка"]);
    assert.deepEqual(searchTerms("calculerRéduction"), ["calculerréduction", "calculer", "réduction"]);
    assert.deepEqual(searchTerms("cafe\u0301"), searchTerms("café"));
  });
});
