import type { Route } from "./+types/robots";
import { publicOrigin } from "~/infra/http/public-origin.server";

export function loader({ request, context }: Route.LoaderArgs) {
  const base = publicOrigin(context.services.config, request);
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
