import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const base = context.services.config.publicUrl.replace(/\/$/, "");
  const body = [
    "User-agent: *",
    "Disallow: /api/",
    "Disallow: /admin",
    "Disallow: /mock-event",
    "",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
