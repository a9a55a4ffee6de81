import type { Route } from "./+types/api.admin.donations.id.refund";
import { refundDonation } from "~/features/donations/refunds.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/admin/donations/:donationId/refund {reason, key?}: refunds the donation in full, once
// per key (send the same key again after a lost answer); 200 {outcome: "refunded"}, or 202
// {outcome: "pending"} when the provider is retried in the background.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Refunding a donation", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "money");
    const body = await readJsonBody(request);
    const key = typeof body.key === "string" && body.key.trim() ? body.key : crypto.randomUUID();
    const result = await refundDonation(context.services, staff, {
      donationId: params.donationId,
      key,
      reason: body.reason,
    });
    const outcome =
      result.outcome === "already" ? (result.status === "succeeded" ? "refunded" : "pending") : result.outcome;
    return Response.json(
      { outcome, refundId: result.refundId },
      { status: outcome === "refunded" ? 200 : 202, headers: noStore },
    );
  });

export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Reading a donation refund", async () => {
    await requireStaff(context.services, request, "money");
    throw new AppError("method-not-allowed", "Use POST to refund a donation.", { headers: { Allow: "POST" } });
  });
