import type { Route } from "./+types/content-json";
import { isContentName } from "~/features/content/content.server";
import { apiRoute } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// Specification call 1 (docs/specification.md, section 7): GET ./content/{name}/content.json
// answers that page's texts as JSON.
export const loader = ({ context, params }: Route.LoaderArgs) =>
  apiRoute("Reading page content", async () => {
    if (!isContentName(params.name)) throw new AppError("not-found", "No such content.");
    const content = await context.services.content();
    return Response.json(content[params.name], { headers: { "Cache-Control": "public, max-age=300" } });
  });
