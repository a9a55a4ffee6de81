import type { FiguresTable } from "~/components/charts/chart";
import { londonDate, londonDay } from "~/lib/london-time";
import { shiftDay } from "~/lib/london-week";
import type { EveningCheckIns, EventSales } from "./sales.server";

// An event's sales and check-ins as tables (decision 094): one shape for the staff page's tables
// and their CSV files, so the two always say the same.

/** The event compared with, named with its date: last year's Quiz Night beside this year's. */
export function compared(event: EventSales): string {
  return `${event.name} (${londonDate(event.eventDate)})`;
}

/** The London day, as staff read it (DD/MM/YYYY). */
function dayWords(day: string): string {
  return londonDate(`${day}T12:00:00Z`);
}

/**
 * A row per day on which either event sold, by days before each event: this event's date then,
 * what it sold that day (by type, where it has several) and so far, and the compared event's.
 */
export function salesTable(sales: EventSales, compare: EventSales | null): FiguresTable {
  const eventDay = londonDay(sales.eventDate);
  const byType = sales.types.length > 1;
  const offsets = [...new Set([...sales.days, ...(compare?.days ?? [])].map((day) => day.before))].sort(
    (a, b) => a - b,
  );
  const mine = new Map(sales.days.map((day) => [day.before, day]));
  const theirs = new Map((compare?.days ?? []).map((day) => [day.before, day]));
  let seatsSoFar = 0;
  let ticketsSoFar = 0;
  let compareSoFar = 0;
  const rows = offsets.map((before) => {
    const day = mine.get(before);
    const other = theirs.get(before);
    seatsSoFar = day?.seatsSoFar ?? seatsSoFar;
    ticketsSoFar = day?.ticketsSoFar ?? ticketsSoFar;
    compareSoFar = other?.seatsSoFar ?? compareSoFar;
    return [
      dayWords(day?.day ?? shiftDay(eventDay, before)),
      -before,
      day?.tickets ?? 0,
      ...(byType ? sales.types.map((_, index) => day?.byType[index] ?? 0) : []),
      ticketsSoFar,
      day?.seats ?? 0,
      seatsSoFar,
      ...(compare ? [other?.seats ?? 0, compareSoFar] : []),
    ];
  });
  return {
    header: [
      "Date",
      "Days before the event",
      "Tickets sold",
      ...(byType ? sales.types.map((type) => `${type.name} tickets`) : []),
      "Tickets so far",
      "Seats sold",
      "Seats so far",
      ...(compare ? [`${compared(compare)}: seats sold`, `${compared(compare)}: seats so far`] : []),
    ],
    rows,
    foot: [
      "All days",
      "",
      sales.tickets,
      ...(byType ? sales.types.map((type) => type.tickets) : []),
      sales.tickets,
      sales.seats,
      `${sales.seats} of ${sales.seatsAvailable}`,
      ...(compare ? [compare.seats, `${compare.seats} of ${compare.seatsAvailable}`] : []),
    ],
  };
}

/** Tickets and seats sold by ticket type (pretix's "per product"). */
export function typesTable(sales: EventSales): FiguresTable {
  return {
    header: ["Ticket type", "Seats each", "Tickets sold", "Seats"],
    rows: sales.types.map((type) => [type.name, type.seatsPerTicket, type.tickets, type.seats]),
    foot: ["All types", "", sales.tickets, sales.seats],
  };
}

/** People checked in each quarter hour of the evening, and so far, against the places sold. */
export function checkInsTable(checkIns: EveningCheckIns): FiguresTable {
  return {
    header: ["Quarter hour (London)", "Checked in", "Checked in so far"],
    rows: checkIns.slots.map((slot) => [`${slot.from}–${slot.to}`, slot.people, slot.soFar]),
    foot: ["All evening", checkIns.total, `${checkIns.total} of ${checkIns.places} places sold`],
  };
}
