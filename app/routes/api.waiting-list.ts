import type { Route } from "./+types/api.waiting-list";
import { joinWaitingList } from "~/features/booking/waiting-list.server";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";

// POST /api/waiting-list {eventId, name, email, tickets, ticketTypeId?}: joins an event's waiting
// list (docs/decisions/086-a-waiting-list.md), or updates the entry of the same address, keeping
// its place. 201 {status, message, updated}. Limited per address, like the other public forms.
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Joining a waiting list", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const joined = await joinWaitingList(
      context.services,
      String(input.eventId ?? ""),
      {
        name: input.name,
        email: input.email,
        tickets: input.tickets,
        ticketTypeId: input.ticketTypeId,
        website: input.website,
      },
      context.clientAddress,
    );
    return Response.json(
      { status: "ok", message: joined.message, updated: joined.updated },
      { status: joined.updated ? 200 : 201, headers: noStore },
    );
  });
