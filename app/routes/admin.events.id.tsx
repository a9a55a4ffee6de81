import { useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.events.id";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { cancelEvent, cancellationProgress } from "~/features/booking/cancellation.server";
import { EventCancellation } from "~/features/booking/components/event-cancellation";
import { EventSales } from "~/features/booking/components/event-sales";
import { EventTickets } from "~/features/booking/components/event-tickets";
import { salesCharts } from "~/features/booking/sales-charts.server";
import { salesByEvent } from "~/features/booking/staff-bookings.server";
import { ticketsPage } from "~/features/booking/tickets.server";
import { EventFigures } from "~/features/events/components/event-figures";
import { EventReminders } from "~/features/booking/components/event-reminders";
import { reminderProgress } from "~/features/booking/reminders.server";
import { EventForm } from "~/features/events/components/event-form";
import { seatFigures } from "~/features/events/components/event-seats-table";
import { eventFormFromPost, eventFormValues } from "~/features/events/event-form";
import {
  addQuestionRow,
  addTicketTypeRow,
  eventFormRefused,
  saveEventForm,
  type EventPageValues,
} from "~/features/events/event-form.server";
import { addEvent, findEvent } from "~/features/events/events.server";
import { leftLabel, mailMode } from "~/features/emails/mail-mode";
import { EventMessages } from "~/features/messages/components/event-messages";
import { messagesOfEvent } from "~/features/messages/messages.server";
import { giftsOfEvent, refundGiftsOfEvent } from "~/features/donations/refunds.server";
import { can } from "~/features/staff/roles";
import { newEventSchema } from "~/features/events/schema";
import { TicketTypesTable } from "~/features/events/components/ticket-types-table";
import { staffTypesOf } from "~/features/events/ticket-types.server";
import { staffQuestionsOf } from "~/features/events/questions.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { offerSeatsAfter } from "~/features/booking/waiting-list.server";
import { seatsByEvent } from "~/infra/db/seats.server";
import { answerForm, formText, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { isHttpsUrl } from "~/lib/links";
import { requestedPage } from "~/lib/pagination";

const savedMessages = {
  created: "The event is created and on the public pages.",
  saved: "Saved: the public pages show the change.",
  unchanged: "There was nothing to save: the form matched the event as it was.",
  duplicated: "This is a copy: change its dates and save it.",
  cancelled: "The event is cancelled: sales have stopped, and every paid booking is being refunded.",
} as const;

// /admin/events/:id: change an event (the staff API's schema and rules), or Duplicate it.
export const loader = pageWork("The edit event page", async ({ request, context, params }: Route.LoaderArgs) => {
  const staff = await requireStaffPage(context.services, request, "events");
  const event = await findEvent(context.services, params.id);
  if (!event) throw new AppError("not-found", "There is no such event.");
  const query = new URL(request.url).searchParams;
  const saved = query.get("saved");
  const search = (query.get("q") ?? "").slice(0, 100);
  const now = context.services.clock.now();
  const [seats, sales, ticketTypes, gifts, questions] = await Promise.all([
    seatsByEvent(context.services.db, now),
    salesByEvent(context.services),
    staffTypesOf(context.services.db, event.id, now),
    giftsOfEvent(context.services.db, event.id),
    staffQuestionsOf(context.services.db, event.id),
  ]);
  return {
    id: event.id,
    name: event.name,
    values: eventFormValues(event, ticketTypes, questions),
    ticketTypes,
    questions,
    onlineSales: event.ticketCostPence !== null,
    now: now.toISOString(),
    figures: {
      ...seatFigures(event, seats[event.id]),
      checkedIn: sales[event.id]?.checkedIn ?? 0,
      takenPence: sales[event.id]?.takenPence ?? 0,
    },
    saved: saved && saved in savedMessages ? savedMessages[saved as keyof typeof savedMessages] : null,
    search,
    tickets: await ticketsPage(context.services, event.id, { search, page: requestedPage(query.get("page")) }),
    cancellation: await cancellationProgress(context.services, event.id),
    gifts,
    reminders: await reminderProgress(
      context.services.db,
      { id: event.id, eventDate: new Date(event.eventDate), reminderHours: event.reminderHours ?? null },
      now,
    ),
    // The sales charts, drawn on the server (decision 094); ?compare= names a past event.
    salesCharts: await salesCharts(context.services, event.id, query.get("compare"), now),
    // Messages to its people and the thank-you (decision 095).
    messages: {
      ...(await messagesOfEvent(context.services, event.id, { giftList: can(staff.role, "money") })),
      sentLabel: leftLabel(mailMode(context.services)),
    },
  };
});

export const action = pageWork("Changing an event", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "events");
  const handlers: Record<
    "save" | "add-type" | "add-question" | "cancel" | "duplicate",
    FormHandler<EventPageValues>
  > = {
    save: async (form) => {
      const result = await saveEventForm(form, { id: params.id }, context.services, staff);
      // "Saved" only when something was: a post that changed nothing says so.
      if ("event" in result) {
        // More seats or a larger cap go to the event's waiting list at once (decision 086).
        await offerSeatsAfter(context.services, { eventId: params.id });
        return redirect(`/admin/events/${params.id}?saved=${result.changed.length > 0 ? "saved" : "unchanged"}`);
      }
      return eventFormRefused(result);
    },
    // Add a ticket type, without JavaScript: the form again with one more type, nothing saved.
    "add-type": async (form) => {
      const { values, errors, focus } = await addTicketTypeRow(form, context.services, staff);
      return { message: "", values: { event: values }, fields: errors, focus };
    },
    // Add a question, without JavaScript: the form again with one more question, nothing saved.
    "add-question": async (form) => {
      const { values, errors, focus } = await addQuestionRow(form, context.services, staff);
      return { message: "", values: { event: values }, fields: errors, focus };
    },
    cancel: async (form) => {
      // The donations made at checkout go back only when staff tick the box (decision 085).
      const withGifts = formText(form, "refundDonations") === "on";
      if (withGifts && !can(staff.role, "money")) {
        throw new AppError("forbidden", "Only a member of staff who may refund donations can refund them too.");
      }
      await cancelEvent(context.services, staff, params.id, { reason: form.get("reason") ?? "" });
      if (withGifts) await refundGiftsOfEvent(context.services, staff, params.id, formText(form, "reason"));
      // The refunds start now, in the server process; the page shows how far they have got.
      void context.services.refunds.kick();
      return redirect(`/admin/events/${params.id}?saved=cancelled`);
    },
    duplicate: async () => {
      const original = await findEvent(context.services, params.id);
      if (!original) throw new AppError("not-found", "There is no such event.");
      const types = await staffTypesOf(context.services.db, original.id, context.services.clock.now());
      const questions = await staffQuestionsOf(context.services.db, original.id);
      const copy = newEventSchema.parse({
        name: `Copy of ${original.name}`.slice(0, 120),
        description: original.description,
        posterImage: original.posterImage,
        eventDate: original.eventDate,
        ticketSaleExpiry: original.ticketSaleExpiry,
        location: original.location,
        // Its ticket types as they stand, each new and unsold; an event with none is priced as before.
        ...(types.length === 0
          ? { ticketCost: original.ticketCost }
          : {
              ...(original.ticketCost === null && { ticketCost: null }),
              ticketTypes: types.map((type) => ({
                name: type.name,
                price: type.price,
                seatsPerTicket: type.seatsPerTicket,
                cap: type.cap,
                saleFrom: type.saleFrom,
                saleUntil: type.saleUntil,
                hidden: type.hidden,
                offSale: type.offSale,
              })),
            }),
        // Its questions as they stand, each new and unanswered; those no longer asked are not copied.
        ...(questions.some((question) => question.asked) && {
          questions: questions
            .filter((question) => question.asked)
            .map(({ question, answerType, choices, required, perAttendee, shownAtDoor }) => ({
              question,
              answerType,
              choices,
              required,
              perAttendee,
              shownAtDoor,
            })),
        }),
        totalAvailableTickets: original.totalAvailableTickets,
        isTest: original.isTest,
        // A link saved before today's rule (docs/decisions/056-one-rule-for-staff-links.md) is not copied.
        link: original.link !== null && isHttpsUrl(original.link) ? original.link : null,
        testimonial: original.testimonial,
        galleryImages: original.galleryImages,
        waitingListOfferHours: original.waitingListOfferHours ?? 24,
        reminderHours: original.reminderHours ?? null,
        whatToBring: original.whatToBring ?? "",
      });
      const created = await addEvent(context.services, copy, { staff, duplicateOf: original.id });
      return redirect(`/admin/events/${created.id}?saved=duplicated`);
    },
  };
  return answerForm(request, handlers, {
    values: (form) => ({ event: eventFormFromPost(form), reason: formText(form, "reason", 1000) }),
  });
});

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? data.name : "Event");

export default function EditEvent({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  // "Saved" speaks of the last save only: not while another is on its way, nor once the form is changed again.
  const [edited, setEdited] = useState(false);
  const [shown, setShown] = useState(loaderData);
  if (shown !== loaderData) {
    setShown(loaderData);
    setEdited(false);
  }
  const saved = loaderData.saved && !actionData && !edited && navigation.state === "idle" ? loaderData.saved : null;
  // After a refused save the form comes first, so what needs correcting is at the top; so it does
  // after Add a ticket type without JavaScript, which draws it again with the new type.
  const refused =
    actionData?.intent === "save" || actionData?.intent === "add-type" || actionData?.intent === "add-question";
  const edit = (
    <section className="section narrow event-edit" id="edit-event" aria-labelledby="edit-event-title">
      <h2 id="edit-event-title">Edit event</h2>
      <EventForm
        key={loaderData.id}
        values={(refused && actionData.values?.event) || loaderData.values}
        errors={refused ? actionData.fields : undefined}
        focus={refused ? actionData.focus : undefined}
        savedTypes={loaderData.ticketTypes}
        savedQuestions={loaderData.questions}
        submitLabel="Save changes"
        now={loaderData.now}
        eventId={loaderData.id}
        onEdit={() => setEdited(true)}
      />
      <Form method="post" className="form">
        <button type="submit" name="intent" value="duplicate" className="button button-secondary">
          Duplicate
        </button>
      </Form>
    </section>
  );
  return (
    <main id="main" className="page event-staff">
      <Breadcrumbs here={loaderData.name} />
      <h1>{loaderData.name}</h1>
      {loaderData.cancellation ? (
        <p className="notice" role="note">
          <span className="badge">Cancelled</span> This event is cancelled.
        </p>
      ) : null}
      {saved ? <FormNotice ok>{saved}</FormNotice> : null}
      <p className="event-staff-links">
        <Link to={`/fundraising-event/${loaderData.id}`}>See it as visitors do</Link>
        <Link to={`/admin/events/${loaderData.id}/waiting-list`}>Waiting list</Link>
        {refused ? null : <a href="#edit-event">Edit event</a>}
      </p>
      {refused ? edit : null}
      <EventFigures row={loaderData.figures} />
      <TicketTypesTable types={loaderData.ticketTypes} onlineSales={loaderData.onlineSales} />
      {loaderData.salesCharts && loaderData.onlineSales ? <EventSales {...loaderData.salesCharts} /> : null}
      {loaderData.cancellation ? null : <EventReminders progress={loaderData.reminders} now={loaderData.now} />}
      <EventMessages
        eventId={loaderData.id}
        messages={loaderData.messages.messages}
        thankYouOpen={loaderData.messages.thankYouOpen}
        gifts={loaderData.messages.thankYouSent ? loaderData.messages.gifts : null}
        sentLabel={loaderData.messages.sentLabel}
      />
      <EventTickets eventId={loaderData.id} tickets={loaderData.tickets} search={loaderData.search} />
      {refused ? null : edit}
      <div className="narrow event-cancel">
        <EventCancellation
          eventName={loaderData.name}
          progress={loaderData.cancellation}
          error={actionData?.intent === "cancel" ? (actionData.fields?.reason ?? actionData.message) : undefined}
          reason={actionData?.intent === "cancel" ? actionData.values?.reason : undefined}
          gifts={loaderData.gifts}
        />
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
