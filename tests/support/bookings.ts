import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { newVisitorAddress } from "./visitors";

/**
 * A visitor's booking, paid, as the booking page makes it: POST /api/bookings, then the offline
 * card provider's confirmation with a good test card. Its booking reference.
 */
export async function buyTickets(
  request: APIRequestContext,
  eventId: string,
  /** `quantity` of the event's one type, or `tickets` by type ({<type id>: quantity}). */
  buyer: { name: string; email: string } & ({ quantity: number } | { tickets: Record<string, number> }),
): Promise<string> {
  // A buyer of their own, from their own address, like each real buyer.
  const headers = { "X-Forwarded-For": newVisitorAddress() };
  const started = await request.post("/api/bookings", { data: { eventId, ...buyer }, headers });
  expect(started.status(), await started.text()).toBe(201);
  const { bookingRef, clientSecret } = (await started.json()) as { bookingRef: string; clientSecret: string };
  const paid = await request.post("/api/payments/offline/confirm", {
    data: { clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
    headers,
  });
  expect(await paid.json()).toEqual({ status: "succeeded" });
  return bookingRef;
}

/** The booking page's fields, by their labels. */
export function bookingForm(page: Page) {
  return {
    name: page.getByLabel("Name", { exact: true }),
    email: page.getByLabel("Email", { exact: true }),
    quantity: page.getByLabel(/^Number of tickets/),
    cardNumber: page.getByLabel("Card number"),
    expiry: page.getByLabel("Expiration date"),
    cvc: page.getByLabel("Security code"),
    pay: page.getByRole("button", { name: /^Pay now/ }),
  };
}

/** Types a test card into the offline card form of the booking or Donate page. */
export async function fillCard(page: Page, number = "4242 4242 4242 4242") {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12/34");
  await page.getByLabel("Security code").fill("123");
}
