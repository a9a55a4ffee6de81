import type { Route } from "./+types/mock-event";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { EventList } from "~/features/events/components/event-list";
import { LiveFeedAlert } from "~/features/events/components/live-feed-alert";
import { useLiveAvailability } from "~/features/events/components/use-live-availability";
import { eventsForVisitors } from "~/features/events/events.server";
import { mockEventList, testEventNotice } from "~/features/events/status";

// The test events page, reached only from the charity number in the footer: trustees use it to
// check real card payments end to end. Kept out of search engines and the navigation.
export const loader = pageWork("The test events page", async ({ context }: Route.LoaderArgs) => {
  const { clock } = context.services;
  const now = clock.now();
  const { events, availability } = await eventsForVisitors(context.services, now);
  return {
    events: mockEventList(events, now),
    availability,
    notice: testEventNotice(context.services.payments.name === "stripe", "list"),
  };
});

export const meta: Route.MetaFunction = () => [
  { title: "Test fundraising events" },
  { name: "robots", content: "noindex, nofollow" },
];

export function headers() {
  return { "X-Robots-Tag": "noindex, nofollow" };
}

export default function MockEvent({ loaderData }: Route.ComponentProps) {
  const live = useLiveAvailability(loaderData.availability);
  return (
    <main id="main" className="page">
      <h1>Test fundraising events</h1>
      <p className="notice" role="note">
        {loaderData.notice}
      </p>
      <EventList
        title="Events on sale"
        events={loaderData.events}
        availability={live.availability}
        current
        emptyText="No events are on sale."
      />
      <LiveFeedAlert error={live.error} onClose={live.dismissError} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
