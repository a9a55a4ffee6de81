import { data } from "react-router";
import type { Route } from "./+types/project";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { Gallery } from "~/features/content/components/gallery";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { Testimonial } from "~/features/content/components/testimonial";
import { findProject } from "~/features/content/content.server";
import { AmountChooser } from "~/features/donations/components/amount-chooser";
import { pageMeta } from "~/lib/page-meta";

export const loader = pageWork("A project page", async ({ context, params }: Route.LoaderArgs) => {
  const content = await context.services.content();
  const project = findProject(content, params.slug);
  if (!project) throw data(null, { status: 404 });
  return { project, presetAmounts: content.payment.presetAmounts };
});

// Rendered once per change and kept (server/page-cache.ts): this page shows only published content and settings: kept until they change.
export const handle = { publicCache: "content" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data
    ? pageMeta(`Project - ${data.project.title}`, data.project.info, {
        site: matches[0].loaderData?.share,
        path: `/project/${data.project.slug}`,
        image: data.project.imageBanner,
      })
    : [];

export default function ProjectPage({ loaderData: { project, presetAmounts } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader title={project.title} image={project.imageBanner} />
      {project.comingSoon ? <p className="badge badge-large">Coming Soon</p> : null}
      <p className="lead">{project.info}</p>
      <TwoColumns col1Text={project.col1Text} col2Text={project.col2Text} />
      {project.testimonial ? <Testimonial testimonial={project.testimonial} heading="Testimonial" /> : null}
      <Gallery images={project.galleryImages} />
      {/* A page that tells what money does gives a way to give (the Trust's general fund, as on /payment). */}
      <div className="section">
        <AmountChooser
          id="project-donate"
          title="Give to Kilele"
          intro="Your gift goes to the Trust's work in Kilele, where it pays for projects like this one. Choose an amount to give by card; if you are a UK taxpayer you can add Gift Aid at no extra cost."
          presets={presetAmounts}
        />
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
