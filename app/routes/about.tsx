import type { Route } from "./+types/about";
import { MissionBlock } from "~/features/content/components/mission-block";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { TeamCards, TrusteesList } from "~/features/content/components/people";
import { VideoBlock } from "~/features/content/components/video-block";
import { pageMeta } from "~/lib/page-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const { about, site } = await context.services.content();
  return { about, video: about.video.source ?? site.defaultVideo };
}

// Rendered once per change and kept (server/page-cache.ts): this page shows only published content and settings: kept until they change.
export const handle = { publicCache: "content" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta("About Us", data?.about.description, { site: matches[0].loaderData?.share, path: "/about" });

export default function About({ loaderData: { about, video } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader
        title={about.title}
        media={<VideoBlock video={video} poster={about.video.poster} caption={about.video.caption} priority />}
      />
      <TwoColumns col1Text={about.col1Text} col2Text={about.col2Text} />
      <MissionBlock mission={about.mission} />
      <TeamCards team={about.team} />
      <TrusteesList trustees={about.trustees} />
    </main>
  );
}
