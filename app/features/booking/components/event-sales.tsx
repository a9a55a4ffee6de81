import { Form } from "react-router";
import type { DrawnChart } from "~/components/charts/chart";
import { ChartFigure } from "~/components/charts/chart-figure";
import { FiguresTableView } from "~/components/charts/figures-table";
import { Field } from "~/components/ui/field";
import { londonDate } from "~/lib/london-time";
import type { EveningCheckIns, EventSales as Sales, PastEvent } from "../sales.server";
import { checkInsTable, compared, salesTable, typesTable } from "../sales-tables";

export interface EventSalesProps {
  sales: Sales;
  compare: Sales | null;
  pastEvents: PastEvent[];
  soFar: DrawnChart;
  perDay: DrawnChart;
  night: { checkIns: EveningCheckIns; chart: DrawnChart | null } | null;
}

/**
 * An event's "Sales" on its staff page (decision 094): seats sold so far against the seats
 * available, beside a past event's curve chosen by a plain GET form; seats sold each day; tickets
 * by type; and "On the night", the check-ins against the places sold. Each chart has its table and CSV.
 */
export function EventSales({ sales, compare, pastEvents, soFar, perDay, night }: EventSalesProps) {
  const base = `/admin/events/${sales.eventId}`;
  return (
    <section className="section chart-section" aria-labelledby="event-sales-title">
      <h2 id="event-sales-title">Sales</h2>
      <p className="field-hint">
        Counted on the day they were paid, London time, as they stand now: refunded tickets are taken off. The event
        holds {sales.seatsAvailable} seats; a ticket for a table takes all its seats.
      </p>
      {pastEvents.length > 0 ? (
        <Form method="get" className="chart-compare" preventScrollReset>
          <Field
            id="sales-compare"
            label="Compare with"
            hint="A past event's seats sold so far, by days before it."
            select={{ name: "compare", defaultValue: compare?.eventId ?? "" }}
          >
            <option value="">No other event</option>
            {pastEvents.map((event) => (
              <option key={event.id} value={event.id}>
                {event.name} ({londonDate(event.eventDate)})
              </option>
            ))}
          </Field>
          <button type="submit" className="button button-secondary">
            Show
          </button>
        </Form>
      ) : null}
      <ChartFigure chart={soFar} />
      <ChartFigure chart={perDay} />
      <FiguresTableView
        table={salesTable(sales, compare)}
        caption={compare ? `Seats sold by day, beside ${compared(compare)}` : "Tickets and seats sold by day"}
        csvHref={`${base}/sales.csv${compare ? `?compare=${compare.eventId}` : ""}`}
      />
      {sales.types.length > 1 ? <FiguresTableView table={typesTable(sales)} caption="Sold by ticket type" /> : null}
      {night ? (
        <>
          <h3>On the night</h3>
          {night.chart ? (
            <>
              <ChartFigure chart={night.chart} />
              <FiguresTableView
                table={checkInsTable(night.checkIns)}
                caption="Check-ins by quarter hour"
                csvHref={`${base}/check-ins.csv`}
              />
            </>
          ) : (
            <p>No one was checked in at the door for this event ({night.checkIns.places} places sold).</p>
          )}
        </>
      ) : null}
    </section>
  );
}
