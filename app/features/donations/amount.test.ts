import { describe, expect, it } from "vitest";
import { amountMessages, amountParam, giftAidPence, parseDonationAmount } from "./amount";

describe("donation amounts", () => {
  it.each([
    ["25", 2500],
    ["25.00", 2500],
    ["12.5", 1250],
    ["12.50", 1250],
    ["£7.99", 799],
    [" 1 ", 100],
    ["1,000", 100_000],
    ["10,000.00", 1_000_000],
    ["0.1", undefined],
  ])("reads %j as whole pence", (text, pence) => {
    const result = parseDonationAmount(text);
    if (pence === undefined) expect(result.ok).toBe(false);
    else expect(result).toEqual({ ok: true, pence });
  });

  it("has no floating-point error where floats would have one", () => {
    // 0.1 + 0.2 and 19.99 * 100 are classic float traps; pence stay exact.
    expect(parseDonationAmount("19.99")).toEqual({ ok: true, pence: 1999 });
    expect(parseDonationAmount("1.10")).toEqual({ ok: true, pence: 110 });
    expect(parseDonationAmount("4.35")).toEqual({ ok: true, pence: 435 });
  });

  it("takes £1 and £10,000 exactly, and nothing outside them", () => {
    expect(parseDonationAmount("1.00")).toEqual({ ok: true, pence: 100 });
    expect(parseDonationAmount("10000")).toEqual({ ok: true, pence: 1_000_000 });
    expect(parseDonationAmount("0.99")).toEqual({ ok: false, message: amountMessages.tooSmall });
    expect(parseDonationAmount("0")).toEqual({ ok: false, message: amountMessages.tooSmall });
    expect(parseDonationAmount("10000.01")).toEqual({ ok: false, message: amountMessages.tooLarge });
    expect(parseDonationAmount("999999999")).toEqual({ ok: false, message: amountMessages.tooLarge });
  });

  it.each(["", "abc", "-5", "5.001", "1,00", "1e3", "NaN", "Infinity", "12.50p", null, undefined, {}])(
    "refuses %j with a message saying how to write it",
    (input) => {
      expect(parseDonationAmount(input)).toEqual({ ok: false, message: amountMessages.invalid });
    },
  );

  it("writes the amount for the URL with its pence", () => {
    expect(amountParam(2500)).toBe("25.00");
    expect(amountParam(1250)).toBe("12.50");
    expect(amountParam(105)).toBe("1.05");
    expect(amountParam(1_000_000)).toBe("10000.00");
  });

  it("adds 25p in the pound for Gift Aid: £10 becomes £12.50", () => {
    expect(giftAidPence(1000)).toBe(250);
    expect(1000 + giftAidPence(1000)).toBe(1250);
    expect(giftAidPence(100)).toBe(25);
    // Part pence are never claimed: 25% of £1.01 is 25.25p, so 25p.
    expect(giftAidPence(101)).toBe(25);
  });
});
