import type { Route } from "./+types/api.admin.volunteers";
import { requireStaff } from "~/features/staff/staff.server";
import { listVolunteers } from "~/features/volunteers/volunteers.server";

// GET /api/admin/volunteers: every sign-up, newest first.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.services;
  await requireStaff(context.services, request);
  return Response.json({ volunteers: await listVolunteers(db) }, { headers: { "Cache-Control": "no-store" } });
}
