import { formatPounds } from "~/lib/money";
import { bookingFeePence } from "../pricing";

/**
 * The sum of a booking, as the booking page's overview and the confirmation page show it (the
 * specification's event cost, booking fee, ticket count and total), with the multiplication written
 * out as the receipt has it: "2 × £12.50".
 */
export function PriceRows({
  ticketCostPence,
  quantity,
  totalPence,
}: {
  ticketCostPence: number;
  quantity: number;
  totalPence: number;
}) {
  return (
    <>
      <dt>Event cost</dt>
      <dd>{formatPounds(ticketCostPence)}</dd>
      <dt>Booking fee</dt>
      <dd>{formatPounds(bookingFeePence)}</dd>
      <dt>Tickets</dt>
      <dd>
        {quantity} × {formatPounds(ticketCostPence)}
      </dd>
      <dt className="total">Total</dt>
      <dd className="total">{formatPounds(totalPence)}</dd>
    </>
  );
}
