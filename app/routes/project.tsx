import { data } from "react-router";
import type { Route } from "./+types/project";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { Gallery } from "~/features/content/components/gallery";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { Testimonial } from "~/features/content/components/testimonial";
import { findProject } from "~/features/content/content.server";
import { pageMeta } from "~/lib/page-meta";

export const loader = pageWork("A project page", async ({ context, params }: Route.LoaderArgs) => {
  const project = findProject(await context.services.content(), params.slug);
  if (!project) throw data(null, { status: 404 });
  return { project };
});

export const meta: Route.MetaFunction = ({ data }) =>
  data ? pageMeta(`Project - ${data.project.title}`, data.project.info) : [];

export default function ProjectPage({ loaderData: { project } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader title={project.title} image={project.imageBanner} />
      {project.comingSoon ? <p className="badge badge-large">Coming Soon</p> : null}
      <p className="lead">{project.info}</p>
      <TwoColumns col1Text={project.col1Text} col2Text={project.col2Text} />
      {project.testimonial ? <Testimonial testimonial={project.testimonial} heading="Testimonial" /> : null}
      <Gallery images={project.galleryImages} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
