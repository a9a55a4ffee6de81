import type { Route } from "./+types/api.admin.volunteers.id";
import { requireStaff } from "~/features/staff/staff.server";
import { deleteVolunteer } from "~/features/volunteers/volunteers.server";
import { allowMethods, apiRoute } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// DELETE /api/admin/volunteers/:id: deletes a sign-up at the volunteer's request (204), recorded
// in the audit log; 404 when there is no such sign-up.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Deleting a volunteer sign-up", async () => {
    allowMethods(request, "DELETE");
    const staff = await requireStaff(context.services, request, "people");
    if (!(await deleteVolunteer(context.services, staff, params.id, context.services.clock.now()))) {
      throw new AppError("not-found", "There is no such volunteer sign-up.");
    }
    return new Response(null, { status: 204 });
  });

// A GET gets the same answer as any unknown method: only DELETE is offered here.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Reading a volunteer sign-up", async () => {
    await requireStaff(context.services, request, "people");
    throw new AppError("method-not-allowed", "Use DELETE to delete a sign-up.", { headers: { Allow: "DELETE" } });
  });
