import { describe, expect, it } from "vitest";
import { personNameField } from "./validation";

const name = personNameField("Bad name", 80);

describe("a person's name (every form that asks for one)", () => {
  it.each([
    "Dr J. Smith",
    "J.R.R. Tolkien",
    "St. John Rivers",
    "Mrs. O'Brien-Nkya",
    "N’Golo Kanté",
    "José Álvarez".normalize("NFD"),
    "Zoë",
    "Amina",
    "A",
  ])("accepts %j: letters of any alphabet, spaces, hyphens, apostrophes and full stops", (value) => {
    expect(name.safeParse(value).success).toBe(true);
  });

  it.each(["", "  ", ".Smith", "-Amina", "'Amina", "R2-D2", "Amina!", "Amina,", "Amina -", "a@b", "Amina_Mushi"])(
    "refuses %j",
    (value) => {
      const result = name.safeParse(value);
      expect(result.success).toBe(false);
      expect(new Set(result.error?.issues.map((issue) => issue.message))).toEqual(new Set(["Bad name"]));
    },
  );

  it("allows 80 characters and no more", () => {
    expect(name.safeParse("A".repeat(79) + ".").success).toBe(true);
    expect(name.safeParse("A".repeat(81)).success).toBe(false);
  });
});
