import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { httpsUrlField, isHttpsUrl, isSitePath, sitePathField } from "./links";

// The security review's probes (point 4): addresses that passed the old patterns and that a
// browser follows to another site.

const sitePath = sitePathField("Bad path");
const httpsUrl = httpsUrlField("Bad address");

describe("a path on this site", () => {
  it.each([
    ["a backslash after the slash, which browsers read as a second slash", "/\\evil.example/x"],
    ["a tab after the slash, which URL parsers drop", "/\t/evil.example"],
    ["a tab anywhere", "/\tevil.example"],
    ["a newline", "/privacy\n-policy.pdf"],
    ["a space", "/privacy policy.pdf"],
    ["a control character", "/privacy\u0000.pdf"],
    ["two slashes: another host", "//evil.example"],
    ["a slash alone", "/"],
    ["a full address", "https://example.org/x"],
    ["a script", "javascript:alert(1)"],
    ["a relative path", "privacy-policy.pdf"],
    ["nothing", ""],
  ])("refuses %s", (_, value) => {
    expect(isSitePath(value)).toBe(false);
    expect(sitePath.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(["Bad path"]);
  });

  it.each(["/privacy-policy.pdf", "/about", "/project/clean-water?tab=story#gallery", "/a/b\\c"])(
    "accepts %j",
    (value) => {
      expect(isSitePath(value)).toBe(true);
      expect(sitePath.parse(value)).toBe(value);
    },
  );

  it("accepts a percent-encoded backslash, which browsers keep in the path on this site", () => {
    expect(new URL("/%5Cevil.example", "https://a.example").href).toBe("https://a.example/%5Cevil.example");
    expect(isSitePath("/%5Cevil.example")).toBe(true);
  });

  it("is trimmed before it is checked", () => {
    expect(sitePath.parse("  /privacy-policy.pdf\n")).toBe("/privacy-policy.pdf");
  });

  it("never leaves the site, for any string it accepts", () => {
    const pathLike = fc.oneof(
      fc.string({ unit: "binary-ascii", maxLength: 30 }).map((rest) => `/${rest}`),
      fc
        .array(fc.constantFrom("/", "\\", "\t", "\n", "\r", " ", "%", "5C", "2F", ".", "@", ":", "evil.example", "x"), {
          maxLength: 8,
        })
        .map((parts) => parts.join("")),
      fc.string({ unit: "binary-ascii", maxLength: 30 }),
      fc.string({ unit: "grapheme", maxLength: 30 }).map((rest) => `/${rest}`),
    );
    fc.assert(
      fc.property(
        pathLike,
        (value) => !isSitePath(value) || new URL(value, "https://a.example").origin === "https://a.example",
      ),
      { numRuns: 1000 },
    );
  });
});

describe("an https address", () => {
  it.each([
    ["plain http", "http://x.org"],
    ["a user name and password", "https://user:pw@x.org"],
    ["a user name", "https://user@x.org"],
    ["a script", "javascript:alert(1)"],
    ["a path on this site", "/privacy-policy.pdf"],
    ["no slashes after https:, which a browser reads as a path on this site", "https:evil.example"],
    ["backslashes after https:", "https:\\\\evil.example"],
    ["a host without a dot", "https://localhost/x"],
    ["no host", "https://"],
    ["a tab, which URL parsers drop", "https://exa\tmple.org"],
    ["a space", "https://example.org/give now"],
    ["not an address", "donate here"],
  ])("refuses %s", (_, value) => {
    expect(isHttpsUrl(value)).toBe(false);
    expect(httpsUrl.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(["Bad address"]);
  });

  it.each(["https://example.org/x", "https://www.example.org", "HTTPS://Example.org/Give?fund=kilele#now"])(
    "accepts %j as typed",
    (value) => {
      expect(isHttpsUrl(value)).toBe(true);
      expect(httpsUrl.parse(` ${value} `)).toBe(value);
    },
  );

  it("means the same address from any page that links to it, for any string it accepts", () => {
    const addressLike = fc
      .array(
        fc.constantFrom("https:", "//", "/", "\\", "\t", " ", "@", ":", "user", "evil.example", "x.org", "%2F", "."),
        { maxLength: 8 },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(
        fc.oneof(addressLike, fc.string({ unit: "binary-ascii", maxLength: 30 })),
        (value) =>
          !isHttpsUrl(value) ||
          (new URL(value, "https://a.example/page").href === new URL(value).href &&
            new URL(value).protocol === "https:"),
      ),
      { numRuns: 1000 },
    );
  });
});
