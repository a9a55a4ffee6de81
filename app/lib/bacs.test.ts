import { describe, expect, it } from "vitest";
import {
  addWorkingDays,
  bankDetailsProblems,
  bankHolidays,
  bankMessages,
  directDebitGuarantee,
  firstCollectionAt,
  noticeDeadline,
  secondCollectionAt,
  testBankMessages,
  testBankProblems,
} from "./bacs";

// Bacs Direct Debit's days and checks (decision 092): working days skip weekends and bank holidays and keep the
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

  it("knows the bank holidays of England and Wales as gov.uk publishes them, substitutes and moved days too", () => {
    const published: Record<number, string[]> = {
      2020: [
        "2020-01-01",
        "2020-04-10",
        "2020-04-13",
        "2020-05-08",
        "2020-05-25",
        "2020-08-31",
        "2020-12-25",
        "2020-12-28",
      ],
      2022: [
        ["2022-01-03", "2022-04-15", "2022-04-18", "2022-05-02", "2022-06-02", "2022-06-03", "2022-08-29"],
        ["2022-09-19", "2022-12-26", "2022-12-27"],
      ].flat(),
      2023: [
        "2023-01-02",
        "2023-04-07",
        "2023-04-10",
        "2023-05-01",
        "2023-05-08",
        "2023-05-29",
        "2023-08-28",
        "2023-12-25",
        "2023-12-26",
      ],
      2025: [
        "2025-01-01",
        "2025-04-18",
        "2025-04-21",
        "2025-05-05",
        "2025-05-26",
        "2025-08-25",
        "2025-12-25",
        "2025-12-26",
      ],
      2026: [
        "2026-01-01",
        "2026-04-03",
        "2026-04-06",
        "2026-05-04",
        "2026-05-25",
        "2026-08-31",
        "2026-12-25",
        "2026-12-28",
      ],
      2027: [
        "2027-01-01",
        "2027-03-26",
        "2027-03-29",
        "2027-05-03",
        "2027-05-31",
        "2027-08-30",
        "2027-12-27",
        "2027-12-28",
      ],
    };
    for (const [year, days] of Object.entries(published))
      expect([...bankHolidays(Number(year))].sort(), year).toEqual(days);
  });

  it("skips bank holidays: Christmas and Boxing Day, and Easter", () => {
    // Thursday 24 December 2026: Friday 25th and Monday 28th (Boxing Day's substitute) are holidays.
    expect(addWorkingDays(new Date("2026-12-24T12:00:00Z"), 1).toISOString()).toBe("2026-12-29T12:00:00.000Z");
    // Thursday 2 April 2026: Good Friday and Easter Monday, so three working days on is Thursday 9th.
    expect(noticeDeadline(new Date("2026-04-02T09:00:00Z")).toISOString()).toBe("2026-04-09T09:00:00.000Z");
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
