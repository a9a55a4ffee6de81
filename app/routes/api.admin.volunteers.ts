import type { Route } from "./+types/api.admin.volunteers";
import { requireStaff } from "~/features/staff/staff.server";
import { listVolunteers } from "~/features/volunteers/volunteers.server";
import { apiRoute, noStore } from "~/infra/http/api.server";

// GET /api/admin/volunteers: every sign-up, newest first.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Listing volunteers", async () => {
    await requireStaff(context.services, request, "people");
    return Response.json({ volunteers: await listVolunteers(context.services) }, { headers: noStore });
  });
