import type { Route } from "./+types/api.admin.events.id.check-ins";
import { doorList, recordCheckIns } from "~/features/door/door.server";
import { checkInsSchema } from "~/features/door/schema";
import { findEvent } from "~/features/events/events.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { AppError } from "~/lib/errors";
import { fieldErrors } from "~/lib/forms";

const noSuchEvent = () => new AppError("not-found", "There is no such event.");

// GET /api/admin/events/:id/check-ins: the event's door list (names, codes, how many are in) and
// its conflicts. The door page keeps it on the phone and asks again every second while online.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading an event's door list", async () => {
    await requireStaff(context.services, request, "checkIn");
    const list = await doorList(context.services, params.id, context.services.clock.now());
    if (!list) throw noSuchEvent();
    return Response.json(list, { headers: noStore });
  });

// POST /api/admin/events/:id/check-ins: { checkIns: [{ id, bookingRef, count, scannedAt, device }] },
// check-ins made on one device (perhaps queued offline); answers each with its outcome.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Recording check-ins", async () => {
    const { clock } = context.services;
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "checkIn");
    const parsed = checkInsSchema.safeParse(await readJsonBody(request, bodyLimits.staff));
    if (!parsed.success) {
      throw new AppError("invalid", "The check-ins are not valid.", { fields: fieldErrors(parsed.error) });
    }
    if (!(await findEvent(context.services, params.id))) throw noSuchEvent();
    const results = await recordCheckIns(context.services, staff, params.id, parsed.data.checkIns, clock.now());
    return Response.json({ results }, { headers: noStore });
  });
