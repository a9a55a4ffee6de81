import type { Route } from "./+types/api.admin.events.id";
import { offerSeatsAfter } from "~/features/booking/waiting-list.server";
import { availabilityByEvent, changeEvent, findEvent } from "~/features/events/events.server";
import { eventChangesSchema } from "~/features/events/schema";
import { staffQuestionsOf } from "~/features/events/questions.server";
import { staffTypesOf } from "~/features/events/ticket-types.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { AppError } from "~/lib/errors";
import { fieldErrors } from "~/lib/forms";

const noSuchEvent = () => new AppError("not-found", "There is no such event.");

// GET /api/admin/events/:id: one event with its ticket counts and ticket types.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading an event", async () => {
    const { clock } = context.services;
    await requireStaff(context.services, request, "events");
    const event = await findEvent(context.services, params.id);
    if (!event) throw noSuchEvent();
    // More seats or a larger cap go to the event's waiting list at once (decision 086).
    await offerSeatsAfter(context.services, { eventId: event.id });
    const now = clock.now();
    const [availability, ticketTypes, questions] = await Promise.all([
      availabilityByEvent(context.services, now).then((all) => all[event.id]),
      staffTypesOf(context.services.db, event.id, now),
      staffQuestionsOf(context.services.db, event.id),
    ]);
    return Response.json({ ...event, availability, ticketTypes, questions }, { headers: noStore });
  });

// PATCH /api/admin/events/:id: change any of the event's fields; `ticketTypes` is the whole list
// of its types, in order (decision 080); `questions` the whole list of its questions (decision 083).
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Changing an event", async () => {
    allowMethods(request, "PATCH");
    const staff = await requireStaff(context.services, request, "events");
    const parsed = eventChangesSchema.safeParse(await readJsonBody(request, bodyLimits.staff));
    if (!parsed.success) {
      throw new AppError("invalid", "The changes are not valid.", { fields: fieldErrors(parsed.error) });
    }
    const event = await changeEvent(context.services, params.id, parsed.data, { staff });
    if (!event) throw noSuchEvent();
    const ticketTypes = await staffTypesOf(context.services.db, event.id, context.services.clock.now());
    const questions = await staffQuestionsOf(context.services.db, event.id);
    return Response.json({ ...event, ticketTypes, questions }, { headers: noStore });
  });
