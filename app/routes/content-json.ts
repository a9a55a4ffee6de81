import type { Route } from "./+types/content-json";
import { isContentName } from "~/features/content/content.server";
import { apiRoute, publishedJson } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// Specification call 1 (docs/specification.md, section 7): GET ./content/{name}/content.json
// answers that page's texts as JSON.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading page content", async () => {
    if (!isContentName(params.name)) throw new AppError("not-found", "No such content.");
    // The tag first: content published meanwhile is sent with the older tag, and asked for again.
    const etag = context.services.contentStore.publishedTag(params.name);
    const content = await context.services.content();
    return publishedJson(request, content[params.name], etag);
  });
