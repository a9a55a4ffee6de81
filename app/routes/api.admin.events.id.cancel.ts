import type { Route } from "./+types/api.admin.events.id.cancel";
import { cancelEvent } from "~/features/booking/cancellation.server";
import { refundGiftsOfEvent } from "~/features/donations/refunds.server";
import { can } from "~/features/staff/roles";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/admin/events/:id/cancel {reason, refundDonations?}: cancels the event (sales stop, the public pages say
// Cancelled) and starts refunding every paid booking in the background; the donations made at
// checkout with its bookings only with `refundDonations: true` (decision 085). Answers the progress:
// {cancelledAt, reason, total, refunded, running, waiting, waitingTotal}.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Cancelling an event", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "events");
    const body = await readJsonBody(request);
    // The donations made at checkout go back only when asked (decision 085), by staff who may refund them.
    const withGifts = body.refundDonations === true;
    if (withGifts && !can(staff.role, "money")) {
      throw new AppError("forbidden", "Only a member of staff who may refund donations can refund them too.");
    }
    const progress = await cancelEvent(context.services, staff, params.id, { reason: body.reason });
    if (withGifts) await refundGiftsOfEvent(context.services, staff, params.id, String(body.reason));
    void context.services.refunds.kick();
    return Response.json(progress, { headers: noStore });
  });

// Only POST is offered here.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Reading an event's cancellation", async () => {
    await requireStaff(context.services, request, "events");
    throw new AppError("method-not-allowed", "Use POST to cancel the event.", { headers: { Allow: "POST" } });
  });
