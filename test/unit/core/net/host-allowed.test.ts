import assert from "node:assert/strict";
import { hostAllowed, hostName, hostToAllow, isLoopbackAddress, parseAllowedHosts } from "../../../../src/core/net/host-allowed";

describe("hostAllowed", () => {
  it("on a loopback address, answers this machine's names and any IP address, with any port", () => {
    for (const host of ["localhost", "localhost:8765", "LocalHost:1", "localhost.:8765", "wisp.localhost:8765", "127.0.0.1:8765", "127.1.2.3", "[::1]:8765", "[::1]", "192.168.1.20:8080"]) {
      assert.equal(hostAllowed(host, "127.0.0.1", []), true, host);
    }
  });

  it("on a loopback address, refuses any other name: a page whose name was pointed at 127.0.0.1", () => {
    for (const host of ["attacker.example", "attacker.example:8765", "localhost.attacker.example", "127.0.0.1.nip.io", "notlocalhost"]) {
      assert.equal(hostAllowed(host, "127.0.0.1", []), false, host);
      assert.equal(hostAllowed(host, "::1", []), false, host);
      assert.equal(hostAllowed(host, "localhost", []), false, host);
    }
  });

  it("refuses a Host header that names no host", () => {
    for (const host of ["user@localhost", "localhost/x", "local host", "[::1", "::1", "localhost:80:80"]) assert.equal(hostAllowed(host, "127.0.0.1", []), false, host);
  });

  it("answers a request without a Host header: no browser sends one", () => {
    assert.equal(hostAllowed(undefined, "127.0.0.1", []), true);
    assert.equal(hostAllowed("", "127.0.0.1", []), true);
  });

  it("adds the names listed; a leading dot takes the name and every name under it", () => {
    const allowed = parseAllowedHosts("wisp.example.com,.team.example");
    for (const host of ["wisp.example.com", "WISP.example.com:443", "team.example", "a.b.team.example:8765"]) assert.equal(hostAllowed(host, "127.0.0.1", allowed), true, host);
    for (const host of ["example.com", "x.wisp.example.com", "evilteam.example", "team.example.attacker.example"]) assert.equal(hostAllowed(host, "127.0.0.1", allowed), false, host);
  });

  it("checks nothing on another address while no names are listed, and the names listed once some are", () => {
    for (const bind of ["0.0.0.0", "::", "10.0.0.21", "wisp.internal"]) {
      assert.equal(hostAllowed("attacker.example", bind, []), true, bind);
      assert.equal(hostAllowed("attacker.example", bind, ["wisp.example.com"]), false, bind);
      assert.equal(hostAllowed("wisp.example.com:8765", bind, ["wisp.example.com"]), true, bind);
    }
  });

  it("answers every name with all", () => {
    assert.equal(hostAllowed("attacker.example", "127.0.0.1", "all"), true);
  });
});

describe("parseAllowedHosts", () => {
  it("reads names and leading-dot suffixes, lowercase, without a trailing dot", () => {
    assert.deepEqual(parseAllowedHosts(" Wisp.Example.com., .team.example ,"), ["wisp.example.com", ".team.example"]);
  });
  it("reads all or * as no check", () => {
    assert.equal(parseAllowedHosts("all"), "all");
    assert.equal(parseAllowedHosts("a.example,*"), "all");
  });
  it("refuses a port, a scheme or nothing, naming where it came from", () => {
    assert.throws(() => parseAllowedHosts("wisp.example.com:8765"), /--allowed-hosts takes host names without scheme or port .*'wisp\.example\.com:8765'/);
    assert.throws(() => parseAllowedHosts("https://wisp.example.com", "WISP_ALLOWED_HOSTS"), /^Error: WISP_ALLOWED_HOSTS takes host names/);
    assert.throws(() => parseAllowedHosts(" , "), /--allowed-hosts needs host names/);
  });
});

describe("isLoopbackAddress", () => {
  it("knows the addresses only this machine reaches", () => {
    for (const host of ["127.0.0.1", "127.0.1.1", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"]) assert.equal(isLoopbackAddress(host), true, host);
    for (const host of ["0.0.0.0", "::", "10.0.0.21", "wisp.internal", "128.0.0.1"]) assert.equal(isLoopbackAddress(host), false, host);
  });
});

describe("hostName", () => {
  it("is the Host header's name without port, IPv6 in brackets", () => {
    assert.equal(hostName("Attacker.Example:8765"), "attacker.example");
    assert.equal(hostName("[::1]:8765"), "[::1]");
    assert.equal(hostName("a b"), undefined);
  });
});

describe("hostToAllow", () => {
  it("is the editor's name when a browser reaches the server through the editor's forwarding", () => {
    assert.equal(hostToAllow("https://Dev.Example.com/proxy/8765/", "127.0.0.1"), "dev.example.com");
    assert.equal(hostToAllow("https://8765.dev.example.com/", "127.0.0.1"), "8765.dev.example.com");
  });
  it("is nothing when the server answers that address already", () => {
    for (const url of ["http://127.0.0.1:8765/", "http://localhost:8080/proxy/8765/", "http://192.168.1.20:8080/proxy/8765/", "http://[::1]:8765/", "not a url"]) {
      assert.equal(hostToAllow(url, "127.0.0.1"), undefined, url);
    }
  });
});
