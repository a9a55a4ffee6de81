import type { Route } from "./+types/api.admin.donations";
import { listDonations } from "~/features/donations/donations.server";
import { requireStaff } from "~/features/staff/staff.server";
import { apiRoute, noStore } from "~/infra/http/api.server";

// GET /api/admin/donations: every donation, newest first, with status, amount and any Gift Aid declaration.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Listing donations", async () => {
    await requireStaff(context.services, request, "money");
    return Response.json({ donations: await listDonations(context.services) }, { headers: noStore });
  });
