import type { Route } from "./+types/api.admin.events";
import { announceChange } from "~/infra/live/changes.server";
import { availabilityByEvent, createEvent, listEvents } from "~/features/events/events.server";
import { fieldErrors, newEventSchema } from "~/features/events/schema";
import { requireStaff } from "~/features/staff/staff.server";
import { readJsonBody } from "~/lib/json-body.server";

const noStore = { "Cache-Control": "no-store" };

// GET /api/admin/events: every event (test events too) with its ticket counts.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, clock } = context.services;
  await requireStaff(context.services, request);
  const [events, availability] = await Promise.all([listEvents(db), availabilityByEvent(db, clock.now())]);
  return Response.json(
    { events: events.map((event) => ({ ...event, availability: availability[event.id] })) },
    { headers: noStore },
  );
}

// POST /api/admin/events: a new event, with the specification's field names.
export async function action({ request, context }: Route.ActionArgs) {
  const { db, clock } = context.services;
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  await requireStaff(context.services, request);
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = newEventSchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json({ error: "The event is not valid.", fields: fieldErrors(parsed.error) }, { status: 400 });
  }
  const event = await db.transaction(async (tx) => {
    const created = await createEvent(tx, parsed.data, clock.now());
    await announceChange(tx, "events");
    return created;
  });
  return Response.json(event, { status: 201, headers: { ...noStore, Location: `/api/admin/events/${event.id}` } });
}
