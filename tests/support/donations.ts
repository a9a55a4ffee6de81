import { expect, type APIRequestContext } from "@playwright/test";

export interface Gift {
  amount: string;
  name: string;
  email: string;
  declaration?: { firstName: string; surname: string; house: string; postcode: string; scope: string };
}

/**
 * A visitor's donation, paid, as the donation page makes it: POST /api/donations, then the offline
 * card provider's confirmation with a good test card. Its id.
 */
export async function giveDonation(request: APIRequestContext, gift: Gift): Promise<string> {
  const started = await request.post("/api/donations", {
    data: {
      amount: gift.amount,
      name: gift.name,
      email: gift.email,
      ...(gift.declaration && {
        giftAid: true,
        firstName: gift.declaration.firstName,
        surname: gift.declaration.surname,
        houseNameOrNumber: gift.declaration.house,
        postcode: gift.declaration.postcode,
        scope: gift.declaration.scope,
      }),
    },
  });
  expect(started.status(), await started.text()).toBe(201);
  const { donationId, clientSecret } = (await started.json()) as { donationId: string; clientSecret: string };
  const paid = await request.post("/api/payments/offline/confirm", {
    data: { clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
  });
  expect(await paid.json()).toEqual({ status: "succeeded" });
  return donationId;
}

/** The London day `days` before today, as YYYY-MM-DD (for forms) and as DD/MM/YYYY (as pages show it). */
export function londonDaysAgo(days: number) {
  const moment = new Date(Date.now() - days * 86_400_000);
  const iso = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(moment);
  const [y, m, d] = iso.split("-");
  return { iso, shown: `${d}/${m}/${y}` };
}
