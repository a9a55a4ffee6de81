import { describe, expect, it } from "vitest";
import { validateVolunteer, volunteerMessages } from "./schema";

const good = { name: "Amina Mushi", email: "amina@example.org", reason: "I teach maths and can help with the school." };

describe("the volunteering form's rules", () => {
  it("accepts a complete sign-up, trimmed", () => {
    const result = validateVolunteer({ ...good, name: "  Amina Mushi " });
    expect(result).toEqual({ ok: true, data: good });
  });
  it("accepts a name with full stops", () => {
    expect(validateVolunteer({ ...good, name: "Dr J. Smith" })).toEqual({
      ok: true,
      data: { ...good, name: "Dr J. Smith" },
    });
  });
  it.each(["José O'Brien-Smith", "Dr J. Smith", "Nguyễn Thị Minh"])("accepts the name %j", (name) => {
    expect(validateVolunteer({ ...good, name }).ok).toBe(true);
  });
  it.each(["a@b.org", "Bob, Alice", "Friends: a;", "Bob <b@x.org>", "Bob\r\nBcc: x", "R2-D2"])(
    "refuses the name %j: only letters, spaces, hyphens, apostrophes and full stops",
    (name) => {
      expect(validateVolunteer({ ...good, name })).toEqual({
        ok: false,
        errors: { name: "Name may only contain letters, spaces, hyphens, apostrophes and full stops." },
      });
    },
  );
  it("says the spec's message for a blank name, including one of spaces", () => {
    expect(validateVolunteer({ ...good, name: "" })).toEqual({ ok: false, errors: { name: volunteerMessages.name } });
    expect(validateVolunteer({ ...good, name: "   " })).toEqual({
      ok: false,
      errors: { name: "Name must not be left blank." },
    });
  });
  it.each([
    "",
    "amina",
    "amina@",
    "amina@example",
    "a b@example.org",
    "@example.org",
    "a@x.org,b@y.org",
    "a@x,y.org",
    "<a@x.org>",
    "a;b@x.org",
  ])("says Invalid email. for %j", (email) => {
    expect(validateVolunteer({ ...good, email })).toEqual({ ok: false, errors: { email: "Invalid email." } });
  });
  it("says the spec's message for a blank reason", () => {
    expect(validateVolunteer({ ...good, reason: " " })).toEqual({
      ok: false,
      errors: { reason: "Reason for signing up must not be left blank." },
    });
  });
  it("reports every field at fault at once", () => {
    const result = validateVolunteer({ name: "", email: "x", reason: "" });
    expect(result.ok).toBe(false);
    expect(!result.ok && Object.keys(result.errors).sort()).toEqual(["email", "name", "reason"]);
  });
  it("turns away input longer than the caps (80, 100, 200), which only a script can send", () => {
    expect(validateVolunteer({ ...good, name: "a".repeat(80) }).ok).toBe(true);
    expect(validateVolunteer({ ...good, name: "a".repeat(81) }).ok).toBe(false);
    expect(validateVolunteer({ ...good, email: `${"a".repeat(88)}@example.org` }).ok).toBe(true);
    expect(validateVolunteer({ ...good, email: `${"a".repeat(89)}@example.org` }).ok).toBe(false);
    expect(validateVolunteer({ ...good, reason: "r".repeat(200) }).ok).toBe(true);
    expect(validateVolunteer({ ...good, reason: "r".repeat(201) }).ok).toBe(false);
  });
  it("treats missing or non-text fields as blank", () => {
    const result = validateVolunteer({ name: 42 });
    expect(result).toEqual({ ok: false, errors: volunteerMessages });
  });
});
