/** The booking fee: added once per booking, not per ticket (docs/specification.md, section 9). */
export const bookingFeePence = 49;

/** Total in pence: ticket cost × quantity + the booking fee. */
export function bookingTotalPence(ticketCostPence: number, quantity: number): number {
  if (!Number.isInteger(ticketCostPence) || ticketCostPence < 0) throw new Error(`Bad ticket cost: ${ticketCostPence}`);
  if (!Number.isInteger(quantity) || quantity < 1) throw new Error(`Bad quantity: ${quantity}`);
  return ticketCostPence * quantity + bookingFeePence;
}

/**
 * Total in pence of tickets of several types: each type's price × its quantity, plus the booking fee
 * once; a booking whose tickets are all free pays no fee (decision 078).
 */
export function itemsTotalPence(items: { pricePence: number; quantity: number }[]): number {
  let tickets = 0;
  for (const { pricePence, quantity } of items) {
    if (!Number.isInteger(pricePence) || pricePence < 0) throw new Error(`Bad ticket cost: ${pricePence}`);
    if (!Number.isInteger(quantity) || quantity < 1) throw new Error(`Bad quantity: ${quantity}`);
    tickets += pricePence * quantity;
  }
  return tickets === 0 ? 0 : tickets + bookingFeePence;
}

/** The quantity the overview counts: what was typed if it is a valid quantity, otherwise one. */
export function quantityForOverview(typed: string): number {
  return /^\d+$/.test(typed.trim()) && Number(typed) >= minTickets && Number(typed) <= maxTickets ? Number(typed) : 1;
}

/** The quantity of one type the overview counts: what was typed if it is a whole number, otherwise none. */
export function typedQuantity(typed: string | undefined): number {
  const text = (typed ?? "").trim();
  return /^\d{1,3}$/.test(text) ? Number(text) : 0;
}

/**
 * Tickets per booking: 1 to 29 (the rule of docs/specification.md, section 5, which states it
 * twice; its message says 1-30, ours says 1-29).
 */
export const minTickets = 1;
export const maxTickets = 29;

/**
 * What one ticket cost on a booking of one price, read from what it paid (less the fee, shared by
 * its tickets): for a booking with no tickets recorded by type, made before types.
 */
export function ticketPriceOf(booking: { amountPence: number; quantity: number }) {
  return Math.round((booking.amountPence - bookingFeePence) / booking.quantity);
}
