import type { Route } from "./+types/api.admin.events.id";
import { announceChange } from "~/infra/live/changes.server";
import { EventRuleError, availabilityByEvent, findEvent, updateEvent } from "~/features/events/events.server";
import { eventChangesSchema, fieldErrors } from "~/features/events/schema";
import { requireStaff } from "~/features/staff/staff.server";
import { readJsonBody } from "~/lib/json-body.server";

const noStore = { "Cache-Control": "no-store" };
const notFound = () => Response.json({ error: "There is no such event." }, { status: 404, headers: noStore });

// GET /api/admin/events/:id: one event with its ticket counts.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db, clock } = context.services;
  await requireStaff(context.services, request);
  const event = await findEvent(db, params.id);
  if (!event) return notFound();
  const availability = (await availabilityByEvent(db, clock.now()))[event.id];
  return Response.json({ ...event, availability }, { headers: noStore });
}

// PATCH /api/admin/events/:id: change any of the event's fields.
export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, clock } = context.services;
  if (request.method !== "PATCH") return Response.json({ error: "Method not allowed." }, { status: 405 });
  await requireStaff(context.services, request);
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = eventChangesSchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json({ error: "The changes are not valid.", fields: fieldErrors(parsed.error) }, { status: 400 });
  }
  try {
    const event = await db.transaction(async (tx) => {
      const updated = await updateEvent(tx, params.id, parsed.data, clock.now());
      if (updated) await announceChange(tx, "events");
      return updated;
    });
    return event ? Response.json(event, { headers: noStore }) : notFound();
  } catch (error) {
    if (error instanceof EventRuleError) {
      return Response.json(
        { error: "The changes are not valid.", fields: { [error.field]: error.message } },
        { status: 400 },
      );
    }
    throw error;
  }
}
