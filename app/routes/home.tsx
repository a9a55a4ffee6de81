import { Link } from "react-router";
import type { Route } from "./+types/home";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { Carousel } from "~/components/ui/carousel";
import { EventList } from "~/features/events/components/event-list";
import { LiveFeedAlert } from "~/features/events/components/live-feed-alert";
import { useLiveAvailability } from "~/features/events/components/use-live-availability";
import { eventsForVisitors } from "~/features/events/events.server";
import { fundraisingLists, latestEventsTitle } from "~/features/events/status";
import { MissionBlock } from "~/features/content/components/mission-block";
import { ProjectList } from "~/features/content/components/project-list";
import { VideoBlock } from "~/features/content/components/video-block";
import { pageMeta } from "~/lib/page-meta";

export const loader = pageWork("The home page", async ({ context }: Route.LoaderArgs) => {
  const { clock } = context.services;
  const now = clock.now();
  const { home, site } = await context.services.content();
  const { events, availability } = await eventsForVisitors(context.services, now);
  return {
    home,
    // Of the site's settings, only what this page shows (the layout has its own, app/lib/site.ts).
    title: site.shortName,
    description: site.description,
    video: home.video.source ?? site.defaultVideo,
    latestEvents: fundraisingLists(events, now).current,
    availability,
  };
});

// Rendered once per change and kept (server/page-cache.ts): this page shows events and their live counts: kept until the next sale, hold or event change, and at most a second.
export const handle = { publicCache: "live" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta(data?.title ?? "Home", data?.description, { site: matches[0].loaderData?.share, path: "/" });

export default function Home({ loaderData }: Route.ComponentProps) {
  const { home, video, latestEvents } = loaderData;
  const live = useLiveAvailability(loaderData.availability);
  return (
    <main id="main" className="home">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">{home.title}</h1>
        <p className="hero-subtitle">{home.subtitle}</p>
        <blockquote className="hero-quote">
          <p>{home.quote}</p>
        </blockquote>
        <p className="hero-actions">
          <Link className="button button-donate" to="/payment">
            Give to Kilele
          </Link>
        </p>
      </section>
      <div className="section">
        <Carousel label="Life in Kilele" images={home.imageWheel.images} delay={home.imageWheel.delay} />
      </div>
      <ProjectList id="active-projects" title={home.activeProjectsTitle} projects={home.activeProjects} />
      {/* Shown only while there are events on sale (test events never). */}
      <EventList
        id="latest-event"
        title={latestEventsTitle(latestEvents.length)}
        events={latestEvents}
        availability={live.availability}
        current
      />
      <ProjectList id="previous-projects" title={home.previousProjectsTitle} projects={home.previousProjects} />
      <MissionBlock mission={home.mission} />
      <section className="section video-section" aria-labelledby="video-title">
        <h2 id="video-title">{home.video.title}</h2>
        <VideoBlock video={video} poster={home.video.poster} caption={home.video.text} />
      </section>
      <LiveFeedAlert error={live.error} onClose={live.dismissError} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
