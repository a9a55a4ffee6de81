import { Link } from "react-router";
import { londonStamp } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { TableScroll } from "~/components/ui/table-scroll";

/** One event's figures for staff: seats, and (on the events page) the door and the money. */
export interface EventSeatsRow {
  id: string;
  name: string;
  eventDate: string;
  onlineSales: boolean;
  total: number;
  sold: number;
  held: number;
  left: number;
  badges?: string[];
  checkedIn?: number;
  takenPence?: number;
}

/** Events with their seats sold, held and left; with `money`, checked in and taken too. */
export function EventSeatsTable({
  rows,
  caption,
  money = false,
}: {
  rows: EventSeatsRow[];
  caption?: string;
  money?: boolean;
}) {
  const online = (row: EventSeatsRow, value: string | number) => (row.onlineSales ? value : "—");
  return (
    <TableScroll label={caption ?? "Table of events"}>
      <table className="admin-table">
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Date</th>
            <th scope="col">Sold</th>
            <th scope="col">Held</th>
            <th scope="col">Left</th>
            {money ? (
              <>
                <th scope="col">Checked in</th>
                <th scope="col">Taken</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to={`/admin/events/${row.id}`}>{row.name}</Link>
                {row.badges?.map((badge) => (
                  <span key={badge} className="badge">
                    {badge}
                  </span>
                ))}
              </th>
              <td data-label="Date">{londonStamp(row.eventDate)}</td>
              <td data-label="Sold">{online(row, row.sold)}</td>
              <td data-label="Held">{online(row, row.held)}</td>
              <td data-label="Left">{row.onlineSales ? `${row.left} of ${row.total}` : "Sold elsewhere"}</td>
              {money ? (
                <>
                  <td data-label="Checked in">{online(row, row.checkedIn ?? 0)}</td>
                  <td data-label="Taken">{formatPounds(row.takenPence ?? 0)}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** An event's seat figures from the seat count (app/infra/db/seats.server.ts). */
export function seatFigures(
  event: { id: string; name: string; eventDate: string; ticketCostPence: number | null; totalAvailableTickets: number },
  seats: { total: number; sold: number; held: number } | undefined,
): EventSeatsRow {
  const { total, sold, held } = seats ?? { total: event.totalAvailableTickets, sold: 0, held: 0 };
  return {
    id: event.id,
    name: event.name,
    eventDate: event.eventDate,
    onlineSales: event.ticketCostPence !== null,
    total,
    sold,
    held,
    left: Math.max(0, total - sold - held),
  };
}
