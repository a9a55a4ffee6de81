import { formatPounds } from "~/lib/money";
import type { EventSeatsRow } from "./event-seats-table";

/**
 * One event's numbers at a glance, for its staff page: tickets sold, held in unfinished checkouts,
 * left, checked in at the door, and the money taken (after refunds).
 */
export function EventFigures({ row }: { row: EventSeatsRow }) {
  const figures: [label: string, value: string][] = row.onlineSales
    ? [
        ["Sold", String(row.sold)],
        ["Held", String(row.held)],
        ["Left", `${row.left} of ${row.total}`],
        ["Checked in", String(row.checkedIn ?? 0)],
        ["Taken", formatPounds(row.takenPence ?? 0)],
      ]
    : [
        ["Tickets", "Sold elsewhere"],
        ["Checked in", String(row.checkedIn ?? 0)],
      ];
  return (
    <section className="event-figures" aria-labelledby="event-figures-title">
      <h2 id="event-figures-title" className="visually-hidden">
        Numbers
      </h2>
      <dl className="figures">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
