import { describe, expect, it } from "vitest";
import { giftAidNamesFrom } from "./donor-names";

describe("Gift Aid's names, read from the donor's Name", () => {
  it.each([
    ["Amina Mushi", "Amina", "Mushi"],
    ["Mary Ann Smith", "Mary Ann", "Smith"],
    ["  Dr J.   Smith ", "Dr J.", "Smith"],
    ["Seán O'Brien", "Seán", "O'Brien"],
    ["Cher", "Cher", ""],
    ["", "", ""],
  ])("%j gives %j and %j", (name, firstName, surname) => {
    expect(giftAidNamesFrom(name)).toEqual({ firstName, surname });
  });

  it("keeps each within what the Gift Aid fields take", () => {
    const { firstName, surname } = giftAidNamesFrom(`${"a".repeat(60)} ${"b".repeat(60)}`);
    expect(firstName).toHaveLength(40);
    expect(surname).toHaveLength(40);
  });
});
