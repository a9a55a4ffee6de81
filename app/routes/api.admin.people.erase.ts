import type { Route } from "./+types/api.admin.people.erase";
import { erasePersonData, lookupAddress } from "~/features/people/people.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/admin/people/erase {email}: erases what is held about the address, keeping what the
// law requires (docs/decisions/018-a-persons-data.md); answers what was done, or 404 when nothing is held.
export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Erasing a person's data", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "people");
    const email = lookupAddress((await readJsonBody(request)).email);
    const erased = await erasePersonData(context.services, staff, email, context.services.clock.now());
    if (!erased) throw new AppError("not-found", `Nothing is held for ${email}.`);
    return Response.json({ erased }, { headers: noStore });
  });

// A GET gets the same answer as any unknown method: only POST is offered here.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Erasing a person's data", async () => {
    await requireStaff(context.services, request, "people");
    throw new AppError("method-not-allowed", "Use POST to erase a person's data.", { headers: { Allow: "POST" } });
  });
