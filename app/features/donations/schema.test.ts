import { describe, expect, it } from "vitest";
import { amountMessages } from "./amount";
import { declarationWording, donationMessages, normalisePostcode, taxpayerStatement, validateDonation } from "./schema";

const donor = { amount: "10.00", name: "Amina Mushi", email: "amina@example.org" };
const declaration = {
  giftAid: true,
  firstName: "Amina",
  surname: "Mushi",
  houseNameOrNumber: "12",
  postcode: "sw1a 1aa",
  scope: "this-donation",
};

describe("UK postcodes", () => {
  it.each([
    ["SW1A 1AA", "SW1A 1AA"],
    ["sw1a1aa", "SW1A 1AA"],
    ["  m1 1ae ", "M1 1AE"],
    ["B33 8TH", "B33 8TH"],
    ["CR2 6XH", "CR2 6XH"],
    ["DN55 1PT", "DN55 1PT"],
    ["W1A 0AX", "W1A 0AX"],
    ["EC1A 1BB", "EC1A 1BB"],
    ["GIR 0AA", "GIR 0AA"],
  ])("accepts %j as %j", (input, expected) => {
    expect(normalisePostcode(input)).toBe(expected);
  });

  it.each(["", "SW1A", "12345", "SW1A 1A", "QA1 1AA", "SW1A 1CA", "AA1A 1AA1", "90210", "SW1A-1AA"])(
    "refuses %j",
    (input) => {
      expect(normalisePostcode(input)).toBeUndefined();
    },
  );
});

describe("the donation form's rules", () => {
  it("accepts a donation without Gift Aid, ignoring any half-filled declaration fields", () => {
    expect(validateDonation({ ...donor, giftAid: false, postcode: "nonsense" })).toEqual({
      ok: true,
      data: { amountPence: 1000, name: "Amina Mushi", email: "amina@example.org", giftAid: null },
    });
  });

  it("accepts a Gift Aid declaration and stores the postcode in its standard form", () => {
    const result = validateDonation({ ...donor, ...declaration });
    expect(result).toEqual({
      ok: true,
      data: {
        amountPence: 1000,
        name: "Amina Mushi",
        email: "amina@example.org",
        giftAid: {
          firstName: "Amina",
          surname: "Mushi",
          houseNameOrNumber: "12",
          postcode: "SW1A 1AA",
          scope: "this-donation",
        },
      },
    });
  });

  it("accepts full stops in the donor's and the declaration's names", () => {
    const result = validateDonation({
      ...donor,
      name: "Dr J. Smith",
      ...declaration,
      firstName: "J.",
      surname: "St. John",
    });
    expect(result).toMatchObject({
      ok: true,
      data: { name: "Dr J. Smith", giftAid: { firstName: "J.", surname: "St. John" } },
    });
  });

  it("asks for every declaration field once Gift Aid is ticked, each with its own message", () => {
    const result = validateDonation({ ...donor, giftAid: true });
    expect(result).toEqual({
      ok: false,
      errors: {
        firstName: donationMessages.firstName,
        surname: donationMessages.surname,
        houseNameOrNumber: donationMessages.houseNameOrNumber,
        postcode: donationMessages.postcode,
        scope: donationMessages.scope,
      },
    });
  });

  it("refuses a postcode that is not a UK one, and a scope it does not know", () => {
    expect(validateDonation({ ...donor, ...declaration, postcode: "75001", scope: "forever" })).toEqual({
      ok: false,
      errors: { postcode: donationMessages.postcode, scope: donationMessages.scope },
    });
  });

  it("checks the amount, the name and the e-mail together", () => {
    expect(validateDonation({ amount: "0.50", name: "R2-D2", email: "nobody" })).toEqual({
      ok: false,
      errors: { amount: amountMessages.tooSmall, name: donationMessages.name, email: donationMessages.email },
    });
    expect(validateDonation(null)).toMatchObject({ ok: false, errors: { amount: amountMessages.invalid } });
  });

  it("words the declaration as HMRC's model for each scope", () => {
    expect(declarationWording("this-donation", 1000, "Kilele Village Trust")).toBe(
      `I want to Gift Aid my donation of £10.00 to Kilele Village Trust. ${taxpayerStatement}`,
    );
    expect(declarationWording("this-and-past-four-years", 2500, "Kilele Village Trust")).toContain(
      "my donation of £25.00 and any donations I have made in the past 4 years to Kilele Village Trust.",
    );
    expect(declarationWording("past-four-years-and-future", 500, "Kilele Village Trust")).toContain(
      "my donation of £5.00 and any donations I make in the future or have made in the past 4 years to Kilele Village Trust.",
    );
    expect(taxpayerStatement).toBe(
      "I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.",
    );
  });
});
