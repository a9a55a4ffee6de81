import { TableScroll } from "~/components/ui/table-scroll";
import { londonStamp } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import type { StaffTicketType } from "../schema";

// An event's ticket types on its staff page (decision 080): what each sells at, what of it is sold,
// held and left, and where it stands now, counted as the checkout counts (typeStanding).

/** Where a type stands, in staff's words: a type closed for good says so, not merely "ended". */
export function typeStatusWords(type: Pick<StaffTicketType, "status" | "closedAt" | "saleFrom">): string {
  if (type.closedAt && type.status === "ended") return "Closed for good";
  switch (type.status) {
    case "on-sale":
      return "On sale";
    case "not-yet":
      return type.saleFrom ? `Not yet on sale (from ${londonStamp(type.saleFrom)})` : "Not yet on sale";
    case "ended":
      return "Ended";
    case "off-sale":
      return "Off sale";
    case "sold-out":
      return "Sold out";
  }
}

export function TicketTypesTable({ types, onlineSales }: { types: StaffTicketType[]; onlineSales: boolean }) {
  if (types.length === 0) return null;
  return (
    <section className="section event-ticket-types" aria-labelledby="event-ticket-types-title">
      <h2 id="event-ticket-types-title">Ticket types</h2>
      {onlineSales ? null : (
        <p className="field-hint">Tickets for this event are not sold on this site at the moment.</p>
      )}
      <TableScroll label="Table of ticket types">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Price</th>
              <th scope="col">Seats per ticket</th>
              <th scope="col">Sold</th>
              <th scope="col">Held</th>
              <th scope="col">Left</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type.id}>
                <th scope="row">
                  {type.name}
                  {type.hidden ? <span className="badge">Hidden</span> : null}
                </th>
                <td data-label="Price">{formatPounds(type.pricePence)}</td>
                <td data-label="Seats per ticket">{type.seatsPerTicket}</td>
                <td data-label="Sold">{type.sold}</td>
                <td data-label="Held">{type.held}</td>
                <td data-label="Left">
                  {type.left === null ? "—" : type.cap === null ? type.left : `${type.left} of ${type.cap}`}
                </td>
                <td data-label="Status">{typeStatusWords(type)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
