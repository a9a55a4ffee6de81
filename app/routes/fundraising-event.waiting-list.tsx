import { data, Link } from "react-router";
import type { Route } from "./+types/fundraising-event.waiting-list";
import { ErrorPage } from "~/components/layout/error-page";
import { WaitingListForm } from "~/features/booking/components/waiting-list-form";
import { joinWaitingList } from "~/features/booking/waiting-list.server";
import { waitingListLabels } from "~/features/booking/waiting-list";
import { eventForVisitors } from "~/features/events/events.server";
import { answerForm } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { pageMeta } from "~/lib/page-meta";

// /fundraising-event/:id/waiting-list: the waiting list's form on a page of its own, and where the
// event page's form posts (without JavaScript too); the answer is the confirmation or what to
// correct (docs/decisions/086-a-waiting-list.md). The API is POST /api/waiting-list.
export const loader = pageWork("The waiting list page", async ({ context, params }: Route.LoaderArgs) => {
  const found = await eventForVisitors(context.services, params.id, context.services.clock.now());
  if (!found) throw data(null, { status: 404 });
  const { event, availability } = found;
  return {
    event: { id: event.id, name: event.name, isTest: event.isTest },
    types: availability.types?.map((type) => ({ id: type.id, name: type.name })),
  };
});

export const action = pageWork(
  "The waiting list page (joining)",
  async ({ request, context, params }: Route.ActionArgs) =>
    answerForm(request, async (form) => {
      const text = (name: string) => {
        const value = form.get(name);
        return typeof value === "string" ? value.slice(0, 200) : "";
      };
      const joined = await joinWaitingList(
        context.services,
        params.id,
        {
          name: text("name"),
          email: text("email"),
          tickets: text("tickets"),
          ticketTypeId: text("ticketTypeId"),
          website: text("website"),
        },
        context.clientAddress,
      );
      return { message: joined.message };
    }),
);

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data
    ? [
        ...pageMeta(`${waitingListLabels.heading}: ${data.event.name}`, `The waiting list for ${data.event.name}.`, {
          site: matches[0].loaderData?.share,
          path: `/fundraising-event/${data.event.id}/waiting-list`,
        }),
        { name: "robots", content: "noindex, nofollow" },
      ]
    : [];

export default function WaitingListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { event, types } = loaderData;
  return (
    <main id="main" className="page">
      <h1>
        {waitingListLabels.heading}: {event.name}
      </h1>
      <WaitingListForm eventId={event.id} types={types} result={actionData} />
      <p>
        <Link to={`/fundraising-event/${event.id}`}>Back to {event.name}</Link>
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
