import type { DrawnChart } from "~/components/charts/chart";
import type { DayPoint } from "~/components/charts/draw.server";
import type { Queryable } from "~/infra/db/database.server";
import { londonDate, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import { compared } from "./sales-tables";
import {
  eveningCheckIns,
  eventSales,
  pastEvents,
  type EveningCheckIns,
  type EventSales,
  type PastEvent,
} from "./sales.server";

// An event's staff page's charts (decision 094): seats sold so far against the seats available,
// beside a past event's curve when staff choose one; seats sold each day; and on the night, the
// check-ins against the places sold. Figures from sales.server.ts, drawn here on the server.

export interface SalesCharts {
  sales: EventSales;
  /** The past event compared with, when staff chose one. */
  compare: EventSales | null;
  /** The events staff may compare with, most recent first. */
  pastEvents: PastEvent[];
  soFar: DrawnChart;
  perDay: DrawnChart;
  /** On the night: shown once the event has check-ins or has passed. */
  night: { checkIns: EveningCheckIns; chart: DrawnChart | null } | null;
}

/** The running total of seats, from nothing the day before the first sale, held up to `upTo`. */
function seatsCurve(sales: EventSales, upTo: number): DayPoint[] {
  if (sales.days.length === 0) return [];
  const points = [
    { day: sales.days[0]!.before - 1, value: 0 },
    ...sales.days.map((d) => ({ day: d.before, value: d.seatsSoFar })),
  ];
  const last = points.at(-1)!;
  if (upTo > last.day) points.push({ day: upTo, value: last.value });
  return points;
}

export async function salesCharts(
  services: { db: Queryable },
  eventId: string,
  compareId: string | null,
  now: Date,
): Promise<SalesCharts | undefined> {
  const [sales, past] = await Promise.all([eventSales(services, eventId, now), pastEvents(services, eventId, now)]);
  if (!sales) return undefined;
  // d3 is loaded with the first chart drawn, not at every start (docs/performance.md, "Start").
  const { drawDays, drawEvening } = await import("~/components/charts/draw.server");
  const chosen = compareId ? past.find((event) => event.id === compareId) : undefined;
  const [compare, checkIns] = await Promise.all([
    chosen ? eventSales(services, chosen.id, now) : undefined,
    eveningCheckIns(services, eventId),
  ]);
  const firstDay = Math.min(-7, ...[sales, compare].flatMap((s) => (s?.days[0] ? [s.days[0].before - 1] : [])));
  const to = Math.max(0, ...[sales, compare].flatMap((s) => (s?.days.at(-1) ? [s.days.at(-1)!.before] : [])));
  const seatsWords = `${plural(sales.seats, "seat")} of ${sales.seatsAvailable} sold (${plural(sales.tickets, "ticket")})`;
  const compareWords = compare
    ? ` ${compared(compare)} sold ${plural(compare.seats, "seat")} of ${compare.seatsAvailable}.`
    : "";
  const soFar = drawDays({
    title: `Seats sold so far for ${sales.name}`,
    description:
      sales.days.length === 0
        ? `No seats sold yet; ${sales.seatsAvailable} available.${compareWords}`
        : `${seatsWords}, from ${Math.abs(sales.days[0]!.before)} days before the event.${compareWords} The table below gives each day.`,
    from: firstDay,
    to,
    lines: [
      { label: "This event: seats sold so far", style: "line-solid", points: seatsCurve(sales, sales.upTo) },
      ...(compare
        ? [
            {
              label: `${compared(compare)}: seats sold so far`,
              style: "line-dash" as const,
              points: seatsCurve(compare, 0),
            },
          ]
        : []),
    ],
    rule: { value: sales.seatsAvailable, label: `${sales.seatsAvailable} seats available` },
    xLabel: "Days before the event",
    yLabel: "Seats",
  });
  const busiest = sales.days.reduce<EventSales["days"][number] | null>(
    (top, day) => (!top || day.seats > top.seats ? day : top),
    null,
  );
  const perDay = drawDays({
    title: `Seats sold each day for ${sales.name}`,
    description: busiest
      ? `Seats were sold on ${plural(sales.days.length, "day")}; the most on ${londonDate(`${busiest.day}T12:00:00Z`)} (${Math.abs(busiest.before)} days before): ${plural(busiest.seats, "seat")}.`
      : "No seats sold yet.",
    from: firstDay,
    to,
    bars: {
      label: "Seats sold that day",
      style: "bar-solid",
      points: sales.days.map((day) => ({ day: day.before, value: day.seats })),
    },
    xLabel: "Days before the event",
    yLabel: "Seats",
  });
  const passed = new Date(sales.eventDate) < now;
  const night =
    checkIns.total > 0 || passed
      ? {
          checkIns,
          chart:
            checkIns.points.length === 0
              ? null
              : drawEvening({
                  title: `Check-ins on the night for ${sales.name}`,
                  description: `${plural(checkIns.total, "person", "people")} of ${plural(checkIns.places, "place")} sold came in, from ${londonTime(checkIns.points[0]!.at)} to ${londonTime(checkIns.points.at(-1)!.at)}. The table below gives each quarter hour.`,
                  from: new Date(checkIns.points[0]!.at),
                  to: new Date(checkIns.points.at(-1)!.at),
                  line: {
                    label: "People checked in so far",
                    style: "line-solid",
                    points: checkIns.points.map((point) => ({ at: new Date(point.at), value: point.soFar })),
                  },
                  rule: { value: checkIns.places, label: `${plural(checkIns.places, "place")} sold` },
                  xLabel: "Time (London)",
                  yLabel: "People",
                }),
        }
      : null;
  return { sales, compare: compare ?? null, pastEvents: past, soFar, perDay, night };
}
