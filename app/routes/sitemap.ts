import type { Route } from "./+types/sitemap";
import { allProjects } from "~/features/content/content.server";
import { listEvents } from "~/features/events/events.server";
import { publicOrigin } from "~/infra/http/public-origin.server";

// The public pages for search engines: content pages, projects and real events (never test events
// or /mock-event).
export async function loader({ request, context }: Route.LoaderArgs) {
  const { config } = context.services;
  const content = await context.services.content();
  const events = (await listEvents(context.services)).filter((event) => !event.isTest);
  const paths = [
    "/",
    "/fundraising",
    "/about",
    "/volunteering",
    "/contact",
    "/payment",
    ...allProjects(content).map((project) => `/project/${project.slug}`),
    ...events.map((event) => `/fundraising-event/${event.id}`),
  ];
  const base = publicOrigin(config, request);
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((path) => `  <url><loc>${base}${path}</loc></url>`)
    .join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
