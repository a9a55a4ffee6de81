import type { Route } from "./+types/api.admin.people";
import { exportPersonData, lookupAddress } from "~/features/people/people.server";
import { requireStaff } from "~/features/staff/staff.server";
import { apiRoute, noStore } from "~/infra/http/api.server";

// GET /api/admin/people?email=: everything held about an address (the subject access export, as
// the page's download gives it); written in the audit log by a hash of the address.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Exporting a person's data", async () => {
    const staff = await requireStaff(context.services, request, "people");
    const email = lookupAddress(new URL(request.url).searchParams.get("email"));
    const { clock } = context.services;
    const { site } = await context.services.content();
    return Response.json(await exportPersonData(context.services, staff, email, clock.now(), site.charityName), {
      headers: noStore,
    });
  });
