import type { Route } from "./+types/api.admin.donations";
import { listDonations } from "~/features/donations/donations.server";
import { requireStaff } from "~/features/staff/staff.server";

// GET /api/admin/donations: every donation, newest first, with status, amount and any Gift Aid declaration.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.services;
  await requireStaff(context.services, request);
  return Response.json({ donations: await listDonations(db) }, { headers: { "Cache-Control": "no-store" } });
}
