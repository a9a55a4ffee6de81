import { describe, expect, it } from "vitest";
import {
  claimScheduleHeadings,
  claimScheduleRow,
  declarationCovers,
  giftAidDeclarationFor,
  readyToClaim,
  scheduleDate,
  type GiftAidDeclaration,
  type GiftAidDonation,
} from "./gift-aid";

const declaredAt = new Date("2026-06-15T10:00:00Z");

function donation(overrides: Partial<GiftAidDonation> = {}): GiftAidDonation {
  return {
    id: "d-other",
    email: "amina@example.org",
    status: "paid",
    amountPence: 2500,
    paidAt: new Date("2026-06-01T10:00:00Z"),
    refundedAt: null,
    giftAidClaimId: null,
    ...overrides,
  };
}

function declaration(overrides: Partial<GiftAidDeclaration> = {}): GiftAidDeclaration {
  return {
    id: "g-1",
    donationId: "d-declared",
    email: "Amina@Example.org",
    madeWithPaidDonation: true,
    firstName: "Amina",
    surname: "Mushi",
    houseNameOrNumber: "Rose Cottage",
    postcode: "M1 1AE",
    scope: "this-donation",
    declaredAt,
    cancelledAt: null,
    ...overrides,
  };
}

describe("which donations a Gift Aid declaration covers", () => {
  const before = donation({ paidAt: new Date("2024-01-10T10:00:00Z") });
  const longBefore = donation({ paidAt: new Date("2022-06-15T09:00:00Z") });
  const after = donation({ paidAt: new Date("2026-09-01T10:00:00Z") });
  const own = donation({ id: "d-declared", paidAt: declaredAt });

  it("'this donation' covers only the donation it was made with", () => {
    const d = declaration({ scope: "this-donation" });
    expect([own, before, after].map((x) => declarationCovers(d, x))).toEqual([true, false, false]);
  });

  it("'this and the past four years' reaches back four years, not forward", () => {
    const d = declaration({ scope: "this-and-past-four-years" });
    expect([own, before, longBefore, after].map((x) => declarationCovers(d, x))).toEqual([true, true, false, false]);
  });

  it("'past four years and future' reaches back four years and forward", () => {
    const d = declaration({ scope: "past-four-years-and-future" });
    expect([own, before, longBefore, after].map((x) => declarationCovers(d, x))).toEqual([true, true, false, true]);
  });

  it("a declaration cancelled before a donation was paid does not cover it; one cancelled after still does", () => {
    const d = declaration({ scope: "past-four-years-and-future", cancelledAt: new Date("2026-08-01T00:00:00Z") });
    expect(declarationCovers(d, after)).toBe(false);
    expect(declarationCovers(d, donation({ paidAt: new Date("2026-07-31T23:59:00Z") }))).toBe(true);
    expect(declarationCovers(d, own)).toBe(true);
    expect(declarationCovers(d, before)).toBe(true);
  });

  it("covers only the same donor, by e-mail in any case", () => {
    const d = declaration({ scope: "past-four-years-and-future" });
    expect(declarationCovers(d, donation({ ...after, email: " AMINA@example.ORG " }))).toBe(true);
    expect(declarationCovers(d, donation({ ...after, email: "juma@example.org" }))).toBe(false);
  });

  it("a declaration made with a donation never paid (an abandoned attempt) covers nothing", () => {
    const d = declaration({ scope: "past-four-years-and-future", madeWithPaidDonation: false });
    expect(declarationCovers(d, after)).toBe(false);
  });

  it("a refunded, refund-pending, claimed or unpaid donation is not ready to claim", () => {
    const d = declaration({ scope: "past-four-years-and-future" });
    expect(readyToClaim(after, [d])).toBe(d);
    expect(
      readyToClaim(donation({ ...after, status: "refunded", refundedAt: new Date("2026-09-08T10:00:00Z") }), [d]),
    ).toBeUndefined();
    expect(readyToClaim(donation({ ...after, status: "refund_pending" }), [d])).toBeUndefined();
    expect(readyToClaim(donation({ ...after, giftAidClaimId: "c-1" }), [d])).toBeUndefined();
    expect(readyToClaim(donation({ ...after, status: "pending", paidAt: null }), [d])).toBeUndefined();
    expect(readyToClaim(after, [])).toBeUndefined();
  });

  it("a donation is claimed under its own declaration first, else the earliest covering one", () => {
    const early = declaration({
      id: "early",
      donationId: "d-early",
      scope: "past-four-years-and-future",
      declaredAt: new Date("2026-01-01"),
    });
    const late = declaration({
      id: "late",
      donationId: "d-late",
      scope: "past-four-years-and-future",
      declaredAt: new Date("2026-07-01"),
    });
    const mine = declaration({ id: "mine", donationId: "d-declared" });
    expect(giftAidDeclarationFor(after, [late, early])?.id).toBe("early");
    expect(giftAidDeclarationFor(own, [late, early, mine])?.id).toBe("mine");
  });
});

describe("the claim schedule's rows, in HMRC's columns and formats", () => {
  it("has HMRC's headings in order", () => {
    expect(claimScheduleHeadings).toEqual([
      "Title",
      "First name",
      "Last name",
      "House name or number",
      "Postcode",
      "Aggregated donations",
      "Sponsored event",
      "Donation date",
      "Amount",
    ]);
  });

  it("writes blank title, names, house, postcode, blank aggregation and sponsorship, DD/MM/YY and 25.00", () => {
    const row = claimScheduleRow(
      { amountPence: 2500, paidAt: new Date("2026-11-22T10:30:00Z") },
      { firstName: "Amina", surname: "Mushi-Kimaro", houseNameOrNumber: "Flat 2, Rose Cottage", postcode: "m11ae" },
    );
    expect(row).toEqual(["", "Amina", "Mushi Kimaro", "Flat 2, Rose Cottage", "M1 1AE", "", "", "22/11/26", "25.00"]);
  });

  it("cuts first and last names at 35 characters", () => {
    const long = "Abcdefghij".repeat(4); // 40 letters
    const [, first, last] = claimScheduleRow(
      { amountPence: 100, paidAt: new Date("2026-11-22T10:30:00Z") },
      { firstName: long, surname: `${long}-Smith`, houseNameOrNumber: "1", postcode: "SW1A 1AA" },
    );
    expect(first).toBe(long.slice(0, 35));
    expect(last).toHaveLength(35);
    expect(last).toBe(long.slice(0, 35));
  });

  it("writes amounts with two decimals and no pound sign, and the date as the London day", () => {
    expect(
      claimScheduleRow({ amountPence: 1_000_000, paidAt: new Date("2026-01-05T12:00:00Z") }, declaration())[8],
    ).toBe("10000.00");
    expect(claimScheduleRow({ amountPence: 1005, paidAt: new Date("2026-01-05T12:00:00Z") }, declaration())[8]).toBe(
      "10.05",
    );
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
    expect(scheduleDate(new Date("2026-06-30T23:30:00Z"))).toBe("01/07/26");
    expect(scheduleDate(new Date("2026-12-31T23:30:00Z"))).toBe("31/12/26");
  });
});

describe("a monthly gift's declaration (decision 089)", () => {
  const declaredAt = new Date("2026-11-27T20:00:00Z");
  const declaration = {
    id: "d1",
    donationId: "first-month",
    email: "amina@example.org",
    regularGiftId: "gift-1",
    madeWithPaidDonation: true,
    firstName: "Amina",
    surname: "Mushi",
    houseNameOrNumber: "Rose Cottage",
    postcode: "M1 1AE",
    scope: "this-and-future" as const,
    declaredAt,
    cancelledAt: null,
  };
  const month = (over: Partial<GiftAidDonation>): GiftAidDonation => ({
    id: "second-month",
    email: "amina@example.org",
    status: "paid",
    amountPence: 1000,
    paidAt: new Date("2026-12-15T12:00:00Z"),
    refundedAt: null,
    giftAidClaimId: null,
    regularGiftId: "gift-1",
    ...over,
  });

  it("covers later payments, never earlier ones, and none paid after it was cancelled", () => {
    expect(declarationCovers(declaration, month({}))).toBe(true);
    expect(declarationCovers(declaration, month({ paidAt: new Date("2026-10-01T12:00:00Z") }))).toBe(false);
    expect(declarationCovers({ ...declaration, cancelledAt: new Date("2026-12-01T00:00:00Z") }, month({}))).toBe(false);
  });

  it("covers the gift's months after an erasure gave each of them an address of its own", () => {
    expect(declarationCovers(declaration, month({ email: "erased-abc@erased.invalid" }))).toBe(true);
    expect(
      declarationCovers(declaration, month({ email: "erased-abc@erased.invalid", regularGiftId: "another" })),
    ).toBe(false);
  });
});
