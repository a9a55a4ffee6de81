import { Form } from "react-router";
import type { Route } from "./+types/admin.events.id.waiting-list";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { TableScroll } from "~/components/ui/table-scroll";
import { entryStateWords, offerStateWords } from "~/features/booking/waiting-list";
import { removeFromWaitingList, waitingListOf } from "~/features/booking/waiting-list.server";
import { findEvent } from "~/features/events/events.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonDate, londonTime } from "~/lib/london-time";
import { plural } from "~/lib/plural";

// /admin/events/:id/waiting-list: the event's waiting list in order, what each person asked for,
// each offer's state and when it ends, and Remove (docs/decisions/086-a-waiting-list.md).
export const loader = pageWork("The waiting list", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "events");
  const event = await findEvent(context.services, params.id);
  if (!event) throw new AppError("not-found", "There is no such event.");
  const now = context.services.clock.now();
  return {
    event: { id: event.id, name: event.name },
    entries: await waitingListOf(context.services.db, event.id, now),
  };
});

export const action = pageWork("Changing a waiting list", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "events");
  return answerForm(request, {
    remove: async (form) => {
      const entryId = String(form.get("intent") ?? "").split(" ")[1] ?? "";
      await removeFromWaitingList(context.services, staff, params.id, entryId);
      return { message: "Removed from the waiting list." };
    },
  });
});

export const meta: Route.MetaFunction = ({ data }) =>
  adminMeta(data ? `Waiting list: ${data.event.name}` : "Waiting list");

const when = (iso: string) => `${londonDate(iso)} ${londonTime(iso)}`;

export default function WaitingList({ loaderData: { event, entries }, actionData }: Route.ComponentProps) {
  const waiting = entries.filter((entry) => entry.place !== null);
  return (
    <main id="main" className="page">
      <Breadcrumbs via={[{ label: event.name, to: `/admin/events/${event.id}` }]} here="Waiting list" />
      <h1>Waiting list: {event.name}</h1>
      {actionData ? <FormNotice ok={actionData.ok}>{actionData.message}</FormNotice> : null}
      <p>
        {plural(waiting.length, "person", "people")} waiting,{" "}
        {plural(
          waiting.reduce((sum, entry) => sum + entry.tickets, 0),
          "ticket",
        )}{" "}
        asked for. Seats that come back are offered in this order to the first whose request fits.
      </p>
      {entries.length === 0 ? (
        <p>Nobody is on the waiting list.</p>
      ) : (
        <TableScroll label="The waiting list">
          <table className="admin-table waiting-list-table">
            <thead>
              <tr>
                <th scope="col">Place</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Tickets</th>
                <th scope="col">Type</th>
                <th scope="col">Joined</th>
                <th scope="col">State</th>
                <th scope="col">Offers</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="Place">{entry.place ?? "–"}</td>
                  <td data-label="Name">{entry.name}</td>
                  <td data-label="Email">{entry.email}</td>
                  <td data-label="Tickets">{entry.tickets}</td>
                  <td data-label="Type">
                    {entry.typeName ?? "Any type"}
                    {entry.typeEnded ? " (no longer on sale)" : ""}
                  </td>
                  <td data-label="Joined">{when(entry.joinedAt)}</td>
                  <td data-label="State">{entryStateWords[entry.state] ?? entry.state}</td>
                  <td data-label="Offers">
                    {entry.offers.length === 0 ? (
                      "None"
                    ) : (
                      <ul>
                        {entry.offers.map((offer) => (
                          <li key={offer.id}>
                            {offerStateWords[offer.state] ?? offer.state}: {offer.tickets} × {offer.typeName}, made{" "}
                            {when(offer.createdAt)}, {offer.state === "open" ? "ends" : "ended by"}{" "}
                            {when(offer.expiresAt)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>
                    {entry.state === "removed" || entry.state === "booked" ? null : (
                      <Form method="post">
                        <button
                          type="submit"
                          name="intent"
                          value={`remove ${entry.id}`}
                          className="button button-secondary"
                          aria-label={`Remove ${entry.name}`}
                        >
                          Remove
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
