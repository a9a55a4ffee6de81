import type { Route } from "./+types/api.admin.events.id.guests";
import { findGuests } from "~/features/door/door.server";
import { findEvent } from "~/features/events/events.server";
import { requireStaff } from "~/features/staff/staff.server";
import { apiRoute, noStore } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// GET /api/admin/events/:id/guests?q=: the booking references of this event whose code, buyer's
// name or e-mail match (decision 077), best first. The door page asks it for an e-mail address,
// which its list kept on the phone leaves out.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Finding a guest at the door", async () => {
    await requireStaff(context.services, request, "checkIn");
    if (!(await findEvent(context.services, params.id))) throw new AppError("not-found", "There is no such event.");
    const typed = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
    const bookingRefs = await findGuests(context.services, params.id, typed);
    return Response.json({ bookingRefs }, { headers: noStore });
  });
