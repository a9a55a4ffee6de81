import type { Route } from "./+types/admin.events.id.tickets-csv";
import { allTickets } from "~/features/booking/tickets.server";
import { findEvent } from "~/features/events/events.server";
import { requireStaffResource } from "~/features/staff/staff.server";
import { recordAudit } from "~/infra/audit/audit.server";
import { pageWork } from "~/infra/http/page.server";
import { ticketsInWords } from "~/lib/booking-items";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";
import { answersCell } from "~/lib/questions";
import { questionsOfEvent } from "~/infra/db/questions.server";

// GET /admin/events/:id/tickets.csv: every ticket of the event, for a spreadsheet ("Download CSV"):
// Quantity is the places it admits; Ticket types what they are ("2 × Adult, 1 × Child"); then a
// column per question of the event, with each attendee's answer ("1: Vegan; 2: None").
export const loader = pageWork(
  "Downloading an event's tickets",
  async ({ request, context, params }: Route.LoaderArgs) => {
    const staff = await requireStaffResource(context.services, request, "bookings");
    const { db, clock } = context.services;
    const event = await findEvent(context.services, params.id);
    if (!event) throw new Response("There is no such event.", { status: 404 });
    const [tickets, questions] = await Promise.all([
      allTickets(context.services, event.id, "sold"),
      questionsOfEvent(db, event.id),
    ]);
    await recordAudit(db, {
      staff,
      action: "tickets.exported",
      subject: `event:${event.id}`,
      summary: `Downloaded ${plural(tickets.length, "ticket")} as CSV`,
      at: clock.now(),
    });
    // Ticket types come last, so a spreadsheet that reads the columns before them by place still works.
    const csv = toCsv(
      [
        "Buyer",
        "E-mail",
        "Quantity",
        "Booking reference",
        "Booking code",
        "Date sold",
        "Checked in",
        "Refunded",
        "Ticket types",
        // A column per question, after the others (decision 083).
        ...questions.map((question) => question.question),
      ],
      tickets.map((t) => [
        t.name,
        t.email,
        t.quantity,
        t.bookingRef,
        t.code,
        `${londonDay(t.dateSold)} ${londonTime(t.dateSold)}`,
        t.checkedIn,
        t.refunded ? "yes" : "no",
        ticketsInWords(t.types),
        ...questions.map((question) => answersCell(t.answers.filter((answer) => answer.questionId === question.id))),
      ]),
    );
    const slug =
      event.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || "event";
    return csvDownload(csv, `tickets-${slug}-${londonDay(event.eventDate)}.csv`);
  },
);
