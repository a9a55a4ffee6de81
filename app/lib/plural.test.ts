import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "./plural";

describe("counts in words", () => {
  it("says one thing in the singular and every other count in the plural, zero included", () => {
    expect(plural(1, "donation")).toBe("1 donation");
    expect(plural(0, "donation")).toBe("0 donations");
    expect(plural(4, "donation")).toBe("4 donations");
  });

  it("takes an irregular plural", () => {
    expect(plural(1, "person", "people")).toBe("1 person");
    expect(plural(2, "person", "people")).toBe("2 people");
    expect(pluralWord(1, "Latest fundraising event")).toBe("Latest fundraising event");
    expect(pluralWord(4, "Latest fundraising event")).toBe("Latest fundraising events");
  });
});
