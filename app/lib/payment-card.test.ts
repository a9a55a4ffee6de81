import { describe, expect, it } from "vitest";
import { cardBrandOf, cardLabel, isPaymentCard } from "./payment-card";

describe("the card a payment was made with", () => {
  it("is named by its brand and last four digits", () => {
    expect(cardLabel({ brand: "visa", last4: "4242" })).toBe("Visa ending 4242");
    expect(cardLabel({ brand: "amex", last4: "0005" })).toBe("American Express ending 0005");
    expect(cardLabel({ brand: "something_new", last4: "1234" })).toBe("Card ending 1234");
  });

  it("has its brand read from the first digits of the number, as Stripe names them", () => {
    expect(cardBrandOf("4242424242424242")).toBe("visa");
    expect(cardBrandOf("5555555555554444")).toBe("mastercard");
    expect(cardBrandOf("2223003122003222")).toBe("mastercard");
    expect(cardBrandOf("378282246310005")).toBe("amex");
    expect(cardBrandOf("6011111111111117")).toBe("discover");
    expect(cardBrandOf("9999999999999995")).toBe("unknown");
  });

  it("is only taken from a provider's answer that has a brand and four digits", () => {
    expect(isPaymentCard({ brand: "visa", last4: "4242" })).toBe(true);
    expect(isPaymentCard({ brand: "visa", last4: null })).toBe(false);
    expect(isPaymentCard({ brand: "visa", last4: "42424" })).toBe(false);
    expect(isPaymentCard(null)).toBe(false);
  });
});
