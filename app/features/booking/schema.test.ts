import { describe, expect, it } from "vitest";
import { bookingMessages, onlyLeftMessage, validateTicketInformation } from "./schema";

const good = { name: "Amina Mushi", email: "amina@example.org", quantity: "2" };

describe("the ticket information rules", () => {
  it("accept letters of any alphabet with spaces, hyphens, apostrophes and full stops", () => {
    for (const name of [
      "Amina Mushi",
      "Seán O'Brien",
      "Anne-Marie Dubois",
      "José Álvarez",
      "Zoë",
      "N’Golo Kanté",
      "Dr J. Smith",
    ]) {
      expect(validateTicketInformation({ ...good, name }).ok, name).toBe(true);
    }
  });
  it.each(["", "   ", "R2-D2", "Amina!", "-Amina", "a".repeat(81)])(
    "refuse the name %j with the spec's message",
    (name) => {
      expect(validateTicketInformation({ ...good, name })).toEqual({
        ok: false,
        errors: { name: bookingMessages.name },
      });
    },
  );
  it("allow names up to 80 characters, not the observed 19", () => {
    expect(validateTicketInformation({ ...good, name: "A".repeat(80) }).ok).toBe(true);
    expect(validateTicketInformation({ ...good, name: "Bartholomew Fitzwilliam-Okonkwo" }).ok).toBe(true);
  });
  it.each(["", "amina", "amina@example", `${"a".repeat(90)}@example.org`])("refuse the e-mail %j", (email) => {
    expect(validateTicketInformation({ ...good, email })).toEqual({
      ok: false,
      errors: { email: "Invalid email: please enter a valid email address." },
    });
  });
  it("accept quantities 1 to 29, digits only, as text or number", () => {
    for (const quantity of ["1", "29", 5, " 7 "])
      expect(validateTicketInformation({ ...good, quantity }).ok).toBe(true);
  });
  it.each(["0", "30", "100", "-1", "2.5", "two", "", "1e1"])("refuse the quantity %j, saying 1-29", (quantity) => {
    expect(validateTicketInformation({ ...good, quantity })).toEqual({
      ok: false,
      errors: { quantity: "Invalid ticket quantity: please enter a valid number between 1-29" },
    });
  });
  it("word the summary and the seats-left message as the product asks", () => {
    expect(bookingMessages.summary).toBe(
      "Invalid ticket information: Please provide a valid name, email address and ticket quantity.",
    );
    expect(onlyLeftMessage(3)).toBe("Only 3 tickets left for this event.");
    expect(onlyLeftMessage(1)).toBe("Only 1 ticket left for this event.");
  });
});
