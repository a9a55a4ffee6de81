import { describe, expect, it } from "vitest";
import {
  addWorkingDays,
  bankDetailsProblems,
  bankMessages,
  directDebitGuarantee,
  firstCollectionAt,
  noticeDeadline,
  secondCollectionAt,
  testBankMessages,
  testBankProblems,
} from "./bacs";

// Bacs Direct Debit's days and checks (decision 092): working days skip weekends and keep the
// London time of day across a change of the clocks; bank details are checked the same way in the
// browser and on the server, and the offline provider takes Stripe's test details only.

const ok = { accountName: "Amina Mushi", sortCode: "10-88-00", accountNumber: "00012345", confirmed: "yes" };

describe("Bacs working days", () => {
  it("skips weekends, and keeps the London time of day across the clocks going back", () => {
    // Friday 27 November 2026, 20:00 → Monday 30th is the first working day, Monday 7 December the sixth.
    expect(addWorkingDays(new Date("2026-11-27T20:00:00Z"), 1).toISOString()).toBe("2026-11-30T20:00:00.000Z");
    expect(firstCollectionAt(new Date("2026-11-27T20:00:00Z")).toISOString()).toBe("2026-12-07T20:00:00.000Z");
    // A Saturday counts from the Monday.
    expect(addWorkingDays(new Date("2026-11-28T09:00:00Z"), 3).toISOString()).toBe("2026-12-02T09:00:00.000Z");
    // Friday 23 October 2026, 10:00 BST → Monday 26th, 10:00 GMT (the clocks went back on the 25th).
    expect(addWorkingDays(new Date("2026-10-23T09:00:00Z"), 1).toISOString()).toBe("2026-10-26T10:00:00.000Z");
    expect(noticeDeadline(new Date("2026-12-10T10:00:00Z")).toISOString()).toBe("2026-12-15T10:00:00.000Z");
  });

  it("takes the second collection on the donor's day after the first, never two close together", () => {
    // Given on 27 November: the first is on 7 December, so the 15th of December is the second ...
    expect(secondCollectionAt(new Date("2026-11-27T20:00:00Z"), 15).toISOString()).toBe("2026-12-15T12:00:00.000Z");
    // ... but the 3rd of December comes before it: the second is on 3 January.
    expect(secondCollectionAt(new Date("2026-11-27T20:00:00Z"), 3).toISOString()).toBe("2027-01-03T12:00:00.000Z");
  });
});

describe("bank details", () => {
  it("says what is wrong with each field", () => {
    expect(bankDetailsProblems(ok)).toEqual({});
    expect(bankDetailsProblems({ ...ok, sortCode: "10 88 00", accountNumber: "0001 2345" })).toEqual({});
    expect(
      bankDetailsProblems({ accountName: " ", sortCode: "1088", accountNumber: "123456789", confirmed: "" }),
    ).toEqual({
      accountName: bankMessages.accountName,
      sortCode: bankMessages.sortCode,
      accountNumber: bankMessages.accountNumber,
      confirmed: bankMessages.confirmed,
    });
  });

  it("takes Stripe's test sort code and accounts only, naming them", () => {
    for (const account of ["00012345", "90012345", "33333335", "93333335", "00033333"]) {
      expect(testBankProblems({ ...ok, accountNumber: account })).toEqual({});
    }
    expect(testBankProblems({ ...ok, accountNumber: "00044444" })).toEqual({ accountNumber: testBankMessages.invalid });
    expect(testBankProblems({ ...ok, sortCode: "20-00-00" })).toEqual({ accountNumber: testBankMessages.unknown });
    expect(testBankMessages.unknown).toContain("10-88-00");
  });

  it("words the Guarantee as the scheme does, with the charity's name and the notice it gives", () => {
    const guarantee = directDebitGuarantee("Kilele Village Trust");
    expect(guarantee).toHaveLength(5);
    expect(guarantee[1]).toContain("Kilele Village Trust will notify you 3 working days in advance");
    expect(guarantee[4]).toBe(
      "You can cancel a Direct Debit at any time by simply contacting your bank or building society. Written confirmation may be required. Please also notify us.",
    );
  });
});
