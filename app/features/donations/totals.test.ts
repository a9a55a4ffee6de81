import { describe, expect, it } from "vitest";
import { monthlyTotals } from "./totals";

describe("donation totals per month", () => {
  it("counts paid donations by London month, newest first, with Gift Aid only where declared", () => {
    const totals = monthlyTotals([
      // 23:30 UTC on 31 March 2026 is 00:30 on 1 April in London (BST from 29 March).
      { status: "paid", paidAt: "2026-03-31T23:30:00Z", amountPence: 1000, giftAid: true },
      { status: "paid", paidAt: "2026-03-31T22:30:00Z", amountPence: 2000, giftAid: false },
      // 23:30 UTC on 31 October is still 31 October in London (GMT from 25 October).
      { status: "paid", paidAt: "2026-10-31T23:30:00Z", amountPence: 5000, giftAid: true },
      { status: "paid", paidAt: "2026-10-01T09:00:00Z", amountPence: 101, giftAid: true },
    ]);
    expect(totals).toEqual([
      { month: "2026-10", label: "October 2026", count: 2, totalPence: 5101, giftAidPence: 1250 + 25 },
      { month: "2026-04", label: "April 2026", count: 1, totalPence: 1000, giftAidPence: 250 },
      { month: "2026-03", label: "March 2026", count: 1, totalPence: 2000, giftAidPence: 0 },
    ]);
  });

  it("leaves out what was not paid or was given back", () => {
    expect(
      monthlyTotals([
        { status: "pending", paidAt: null, amountPence: 1000, giftAid: false },
        { status: "refunded", paidAt: "2026-05-01T10:00:00Z", amountPence: 1000, giftAid: true },
        { status: "refund_pending", paidAt: "2026-05-01T10:00:00Z", amountPence: 1000, giftAid: true },
        { status: "cancelled", paidAt: null, amountPence: 1000, giftAid: false },
      ]),
    ).toEqual([]);
  });
});
