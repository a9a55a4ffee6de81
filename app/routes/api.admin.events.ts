import type { Route } from "./+types/api.admin.events";
import { addEvent, availabilityByEvent, listEvents } from "~/features/events/events.server";
import { newEventSchema } from "~/features/events/schema";
import { staffQuestionsByEvent, staffQuestionsOf } from "~/features/events/questions.server";
import { staffTypesByEvent, staffTypesOf } from "~/features/events/ticket-types.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { AppError } from "~/lib/errors";
import { fieldErrors } from "~/lib/forms";

// GET /api/admin/events: every event (test events too) with its ticket counts and ticket types.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Listing events", async () => {
    const { clock } = context.services;
    await requireStaff(context.services, request, "events");
    const now = clock.now();
    const [events, availability, types, questions] = await Promise.all([
      listEvents(context.services),
      availabilityByEvent(context.services, now),
      staffTypesByEvent(context.services.db, now),
      staffQuestionsByEvent(context.services.db),
    ]);
    return Response.json(
      {
        events: events.map((event) => ({
          ...event,
          availability: availability[event.id],
          ticketTypes: types[event.id] ?? [],
          questions: questions[event.id] ?? [],
        })),
      },
      { headers: noStore },
    );
  });

// POST /api/admin/events: a new event, with the specification's field names; its ticket types
// in `ticketTypes`, or one named Ticket at `ticketCost` (decision 080); its questions in `questions`
// (decision 083).
export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Creating an event", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "events");
    const parsed = newEventSchema.safeParse(await readJsonBody(request, bodyLimits.staff));
    if (!parsed.success) {
      throw new AppError("invalid", "The event is not valid.", { fields: fieldErrors(parsed.error) });
    }
    const event = await addEvent(context.services, parsed.data, { staff });
    const ticketTypes = await staffTypesOf(context.services.db, event.id, context.services.clock.now());
    const questions = await staffQuestionsOf(context.services.db, event.id);
    return Response.json(
      { ...event, ticketTypes, questions },
      { status: 201, headers: { ...noStore, Location: `/api/admin/events/${event.id}` } },
    );
  });
