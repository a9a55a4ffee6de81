/** The booking fee: added once per booking, not per ticket (docs/specification.md, section 9). */
export const bookingFeePence = 49;

/** Total in pence: ticket cost × quantity + the booking fee. */
export function bookingTotalPence(ticketCostPence: number, quantity: number): number {
  if (!Number.isInteger(ticketCostPence) || ticketCostPence < 0) throw new Error(`Bad ticket cost: ${ticketCostPence}`);
  if (!Number.isInteger(quantity) || quantity < 1) throw new Error(`Bad quantity: ${quantity}`);
  return ticketCostPence * quantity + bookingFeePence;
}

/** The quantity the overview counts: what was typed if it is a valid quantity, otherwise one. */
export function quantityForOverview(typed: string): number {
  return /^\d+$/.test(typed.trim()) && Number(typed) >= minTickets && Number(typed) <= maxTickets ? Number(typed) : 1;
}

/**
 * Tickets per booking: 1 to 29 (the rule of docs/specification.md, section 5, which states it
 * twice; its message says 1-30, ours says 1-29).
 */
export const minTickets = 1;
export const maxTickets = 29;
