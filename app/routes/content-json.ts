import type { Route } from "./+types/content-json";
import { isContentName } from "~/features/content/content.server";

// Spec call 1: GET ./content/{name}/content.json answers that page's texts as JSON.
export async function loader({ context, params }: Route.LoaderArgs) {
  if (!isContentName(params.name)) return Response.json({ error: "No such content." }, { status: 404 });
  const content = await context.services.content();
  return Response.json(content[params.name], { headers: { "Cache-Control": "public, max-age=300" } });
}
