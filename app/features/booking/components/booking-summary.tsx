import { formatPounds } from "~/lib/money";
import { typeLabel } from "~/lib/ticket-types";
import { DiscountRow } from "./promo-code-field";

/** Tickets of one type in a booking, as the overview lists them: "2 × Adult £12.50". */
export interface TicketLine {
  name: string;
  pricePence: number;
  quantity: number;
}

/**
 * The sum of a booking, as the booking page's overview and the confirmation page show it. Of an
 * event sold at one price: the specification's event cost, booking fee, ticket count and total, with
 * the multiplication written out as the receipt has it ("2 × £12.50"). Of an event sold by type
 * (`lines`): each type's tickets ("2 × Adult £12.50") and what they come to, the booking fee once,
 * and the total. The fee is what the total adds to the tickets: none when they are all free
 * (decision 078).
 */
export function PriceRows(
  // `discount`: a promo code's line, taken off the tickets listed at their full price (decision 084).
  /** `giftPence`: a donation added at checkout, listed apart from the tickets and in the total (decision 085). */
  props: { totalPence: number; discount?: { label: string; pence: number } | null; giftPence?: number } & (
    | { ticketCostPence: number; quantity: number; lines?: never }
    | { lines: TicketLine[]; ticketCostPence?: never; quantity?: never }
  ),
) {
  const { totalPence } = props;
  const giftPence = props.giftPence ?? 0;
  const ticketsPence =
    (props.lines
      ? props.lines.reduce((sum, line) => sum + line.pricePence * line.quantity, 0)
      : props.ticketCostPence * props.quantity) - (props.discount?.pence ?? 0);
  const fee = (
    <>
      <dt>Booking fee</dt>
      <dd>{formatPounds(Math.max(0, totalPence - giftPence - ticketsPence))}</dd>
    </>
  );
  const total = (
    <>
      {giftPence > 0 ? (
        <>
          <dt>Donation</dt>
          <dd>{formatPounds(giftPence)}</dd>
        </>
      ) : null}
      <dt className="total">Total</dt>
      <dd className="total">{formatPounds(totalPence)}</dd>
    </>
  );
  if (!props.lines) {
    return (
      <>
        <dt>Event cost</dt>
        <dd>{formatPounds(props.ticketCostPence)}</dd>
        {fee}
        <dt>Tickets</dt>
        <dd>
          {props.quantity} × {formatPounds(props.ticketCostPence)}
        </dd>
        <DiscountRow discount={props.discount} />
        {total}
      </>
    );
  }
  return (
    <>
      {props.lines.length === 0 ? (
        <>
          <dt>Tickets</dt>
          <dd>None chosen yet</dd>
        </>
      ) : (
        props.lines.map((line) => <TicketLineRow key={`${line.name}-${line.pricePence}`} line={line} />)
      )}
      <DiscountRow discount={props.discount} />
      {fee}
      {total}
    </>
  );
}

function TicketLineRow({ line }: { line: TicketLine }) {
  return (
    <>
      <dt className="ticket-line">
        {line.quantity} × {typeLabel(line)}
      </dt>
      <dd>{formatPounds(line.pricePence * line.quantity)}</dd>
    </>
  );
}
