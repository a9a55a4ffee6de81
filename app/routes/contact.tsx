import type { Route } from "./+types/contact";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { pageMeta } from "~/lib/page-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const { contact, site } = await context.services.content();
  return { contact, email: site.email };
}

// Rendered once per change and kept (server/page-cache.ts): this page shows only published content and settings: kept until they change.
export const handle = { publicCache: "content" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta("Contact Us", data?.contact.description, {
    site: matches[0].loaderData?.share,
    path: "/contact",
    image: data?.contact.image,
  });

export default function Contact({ loaderData: { contact, email } }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader title={contact.title} image={contact.image} />
      <TwoColumns col1Text={contact.col1Text} col2Text={contact.col2Text} />
      <p className="section contact-email">
        Email us at <a href={`mailto:${email}`}>{email}</a>
      </p>
    </main>
  );
}
