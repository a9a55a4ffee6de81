import type { Route } from "./+types/api.bookings.ref.release";
import { releaseOwnHold } from "~/features/booking/release.server";
import { offerSeatsAfter } from "~/features/booking/waiting-list.server";
import { releaseRequestSchema, type ReleasedHold } from "~/features/booking/schema";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/bookings/:bookingRef/release {clientSecret, reason?}: the visitor's own unpaid attempt
// gives its seats back (a declined card, a changed quantity, leaving the page: sent by
// navigator.sendBeacon then). Proved by the payment's client secret, judged by the provider; answers
// {status}, the same however often it is asked (ReleasedHold).
export const loader = onlyAllows("POST");

export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Releasing a booking's hold", async () => {
    allowMethods(request, "POST");
    const parsed = releaseRequestSchema.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new AppError("invalid", "Send the payment's client secret.");
    const { clientSecret, reason } = parsed.data;
    const status = await releaseOwnHold(context.services, { bookingRef: params.bookingRef, clientSecret }, reason);
    // Seats given back go to the event's waiting list at once, not at the next sweep (decision 086).
    if (status === "released") await offerSeatsAfter(context.services, { bookingRef: params.bookingRef });
    return Response.json({ status } satisfies ReleasedHold, { headers: noStore });
  });
