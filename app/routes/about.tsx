import type { Route } from "./+types/about";
import { MissionBlock } from "~/features/content/components/mission-block";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { TeamCards, TrusteesList } from "~/features/content/components/people";
import { VideoPlayer } from "~/features/content/components/video-player";
import { pageMeta } from "~/lib/page-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const { about, site } = await context.services.content();
  return { about, defaultVideoUrl: site.defaultVideoUrl };
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta("About Us", data?.about.description, { site: matches[0].loaderData?.share, path: "/about" });

export default function About({ loaderData: { about, defaultVideoUrl } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader
        title={about.title}
        media={
          <VideoPlayer
            url={about.video.url ?? defaultVideoUrl}
            poster={about.video.poster}
            title={about.video.caption}
          />
        }
      />
      <TwoColumns col1Text={about.col1Text} col2Text={about.col2Text} />
      <MissionBlock mission={about.mission} />
      <TeamCards team={about.team} />
      <TrusteesList trustees={about.trustees} />
    </main>
  );
}
