import type { Route } from "./+types/fundraising";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { EventList } from "~/features/events/components/event-list";
import { LiveFeedAlert } from "~/features/events/components/live-feed-alert";
import { useLiveAvailability } from "~/features/events/components/use-live-availability";
import { eventsForVisitors } from "~/features/events/events.server";
import { fundraisingLists, latestEventsTitle } from "~/features/events/status";
import { AmountChooser } from "~/features/donations/components/amount-chooser";
import { pageMeta } from "~/lib/page-meta";

export const loader = pageWork("The fundraising page", async ({ context }: Route.LoaderArgs) => {
  const { clock } = context.services;
  const now = clock.now();
  const { fundraising, site, payment } = await context.services.content();
  const { events, availability } = await eventsForVisitors(context.services, now);
  const { current, past } = fundraisingLists(events, now);
  return {
    fundraising,
    quizTicketingUrl: site.quizTicketingUrl ?? null,
    presetAmounts: payment.presetAmounts,
    current,
    past,
    availability,
  };
});

// Rendered once per change and kept (server/page-cache.ts): this page shows events and their live counts: kept until the next sale, hold or event change, and at most a second.
export const handle = { publicCache: "live" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta("Fundraising", data?.fundraising.description, {
    site: matches[0].loaderData?.share,
    path: "/fundraising",
    image: data?.fundraising.image,
  });

export default function Fundraising({ loaderData }: Route.ComponentProps) {
  const { fundraising, quizTicketingUrl, current, past, presetAmounts } = loaderData;
  const live = useLiveAvailability(loaderData.availability);
  return (
    <main id="main" className="page">
      <PageHeader title={fundraising.title} image={fundraising.image} />
      <TwoColumns col1Text={fundraising.col1Text} col2Text={fundraising.col2Text} />
      <EventList
        id="latest-events"
        title={latestEventsTitle(current.length)}
        events={current}
        availability={live.availability}
        current
        emptyText="More events coming soon."
      />
      {/* Only for a quiz sold elsewhere: a quiz booked here is one of the events above. */}
      {quizTicketingUrl ? (
        <p className="section quiz-link">
          <a href={quizTicketingUrl} rel="noopener noreferrer">
            Book tickets for our quiz night on our ticketing page
          </a>
        </p>
      ) : null}
      <EventList
        id="past-events"
        title="Past events"
        events={past}
        availability={live.availability}
        current={false}
        emptyText="No past events."
      />
      <div className="section">
        <AmountChooser
          id="fundraising-donate"
          title="Can't make an event? Give directly"
          intro="Every pound goes to work in Kilele. Choose an amount to give by card; if you are a UK taxpayer you can add Gift Aid at no extra cost."
          presets={presetAmounts}
        />
      </div>
      <LiveFeedAlert error={live.error} onClose={live.dismissError} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
