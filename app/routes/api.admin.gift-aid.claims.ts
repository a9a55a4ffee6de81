import type { Route } from "./+types/api.admin.gift-aid.claims";
import {
  claimSummary,
  donationsReadyToClaim,
  markClaimed,
  pastClaims,
} from "~/features/donations/gift-aid-claims.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";

// GET /api/admin/gift-aid/claims: the donations ready to claim (HMRC's schedule rows) and past
// claims. POST {claimedOn: "YYYY-MM-DD", donationIds: [...]}: marks exactly those as claimed (201),
// or 409 with nothing changed if any was claimed or refunded meanwhile.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Listing Gift Aid claims", async () => {
    await requireStaff(context.services, request, "money");
    const ready = await donationsReadyToClaim(context.services);
    return Response.json(
      { ready, summary: claimSummary(ready), claims: await pastClaims(context.services) },
      { headers: noStore },
    );
  });

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Marking a Gift Aid claim", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "money");
    const claim = await markClaimed(
      context.services,
      staff,
      await readJsonBody(request, bodyLimits.staff),
      context.services.clock.now(),
    );
    return Response.json(claim, { status: 201, headers: noStore });
  });
