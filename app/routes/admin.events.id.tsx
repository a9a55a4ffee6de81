import { Form, Link, data, redirect } from "react-router";
import type { Route } from "./+types/admin.events.id";
import { ErrorPage } from "~/components/layout/error-page";
import { EventTickets } from "~/features/booking/components/event-tickets";
import { ticketsPage } from "~/features/booking/tickets.server";
import { EventForm } from "~/features/events/components/event-form";
import { eventFormValues } from "~/features/events/event-form";
import { readEventFormData, saveEventForm } from "~/features/events/event-form.server";
import { createEvent, findEvent } from "~/features/events/events.server";
import { newEventSchema } from "~/features/events/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { requireSameOrigin } from "~/infra/http/api.server";
import { pageWork } from "~/infra/http/page.server";
import { announceChange } from "~/infra/live/changes.server";
import { AppError } from "~/lib/errors";
import { requestedPage } from "~/lib/pagination";

const savedMessages = {
  created: "The event is created and on the public pages.",
  saved: "Saved: the public pages show the change.",
  duplicated: "This is a copy: change its dates and save it.",
} as const;

// /admin/events/:id: change an event (the staff API's schema and rules), or Duplicate it.
export const loader = pageWork("The edit event page", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const event = await findEvent(context.services.db, params.id);
  if (!event) throw new AppError("not-found", "There is no such event.");
  const query = new URL(request.url).searchParams;
  const saved = query.get("saved");
  const search = (query.get("q") ?? "").slice(0, 100);
  return {
    id: event.id,
    name: event.name,
    values: eventFormValues(event),
    now: context.services.clock.now().toISOString(),
    saved: saved && saved in savedMessages ? savedMessages[saved as keyof typeof savedMessages] : null,
    search,
    tickets: await ticketsPage(context.services.db, event.id, { search, page: requestedPage(query.get("page")) }),
  };
});

export const action = pageWork("Changing an event", async ({ request, context, params }: Route.ActionArgs) => {
  requireSameOrigin(request, context.services.config.publicUrl);
  const staff = await requireStaffPage(context.services, request);
  const { db, clock, pictures } = context.services;
  const form = await readEventFormData(request);

  if (form.get("intent") === "duplicate") {
    const original = await findEvent(db, params.id);
    if (!original) throw new AppError("not-found", "There is no such event.");
    const copy = newEventSchema.parse({
      name: `Copy of ${original.name}`.slice(0, 120),
      description: original.description,
      posterImage: original.posterImage,
      eventDate: original.eventDate,
      ticketSaleExpiry: original.ticketSaleExpiry,
      location: original.location,
      ticketCost: original.ticketCost,
      totalAvailableTickets: original.totalAvailableTickets,
      isTest: original.isTest,
      link: original.link,
      testimonial: original.testimonial,
      galleryImages: original.galleryImages,
    });
    const created = await db.transaction(async (tx) => {
      const event = await createEvent(tx, copy, clock.now(), pictures, { staff, duplicateOf: original.id });
      await announceChange(tx, "events");
      return event;
    });
    return redirect(`/admin/events/${created.id}?saved=duplicated`);
  }

  const result = await saveEventForm(form, { id: params.id }, context.services, staff);
  if ("event" in result) return redirect(`/admin/events/${params.id}?saved=saved`);
  return data(result, { status: 400 });
});

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `Edit ${data.name}` : "Edit event");

export default function EditEvent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="page narrow">
      <p>
        <Link to="/admin/events">All events</Link>
      </p>
      <h1>Edit {loaderData.name}</h1>
      {loaderData.saved && !actionData ? (
        <p className="notice" role="status">
          {loaderData.saved}
        </p>
      ) : null}
      <p>
        <Link to={`/fundraising-event/${loaderData.id}`}>See it as visitors do</Link>
      </p>
      <EventForm
        key={loaderData.id}
        values={actionData?.values ?? loaderData.values}
        errors={actionData?.errors}
        submitLabel="Save changes"
        now={loaderData.now}
        eventId={loaderData.id}
      />
      <Form method="post" className="form">
        <button type="submit" name="intent" value="duplicate" className="button button-secondary">
          Duplicate
        </button>
      </Form>
      <EventTickets eventId={loaderData.id} tickets={loaderData.tickets} search={loaderData.search} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
