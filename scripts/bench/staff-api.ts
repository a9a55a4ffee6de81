// What the benchmark's scenarios do as staff and as a buyer's card, through the site's own API:
// sign in, make the event a scenario sells, and the offline provider's test card.

/** A signed-in staff session's cookie. */
export async function signedInCookie(url: string, staff: { email: string; password: string }): Promise<string> {
  const response = await fetch(url + "/api/admin/session", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify(staff),
  });
  if (response.status !== 204) throw new Error(`Staff sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A new event on sale for a week, eight days ahead, at £10 a ticket, made through the staff API. */
export async function createBenchEvent(
  url: string,
  cookie: string,
  { name, description, seats }: { name: string; description: string; seats: number },
) {
  const day = 86_400_000;
  const event = {
    name,
    description,
    posterImage: "pages/quiz-night",
    eventDate: new Date(Date.now() + 8 * day).toISOString(),
    location: "St Mary's Church Hall",
    ticketCost: 10,
    totalAvailableTickets: seats,
    ticketSaleExpiry: new Date(Date.now() + 7 * day).toISOString(),
  };
  const created = await fetch(url + "/api/admin/events", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url, Cookie: cookie },
    body: JSON.stringify(event),
  });
  if (created.status !== 201) throw new Error(`Creating the event answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  return { id, ...event };
}

/** The offline provider's test card that succeeds, expiring next year whatever today is. */
export function testCard() {
  return {
    number: "4242 4242 4242 4242",
    expiry: `12 / ${String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0")}`,
    cvc: "123",
  };
}
