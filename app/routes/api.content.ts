import type { Route } from "./+types/api.content";
import { contentNameForPageKey } from "~/features/content/content.server";
import { apiRoute, publishedJson } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// Specification call 2 (docs/specification.md): a page's texts by page key (AboutPage,
// VolunteeringPage, ContactPage, PaymentPage, FundraisingPage, HomePage, SiteSettings).
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading page content by key", async () => {
    const name = contentNameForPageKey(params.pageKey);
    if (!name) throw new AppError("not-found", `No content for page key "${params.pageKey}".`);
    // The tag first: content published meanwhile is sent with the older tag, and asked for again.
    const etag = context.services.contentStore.publishedTag(name);
    const content = await context.services.content();
    return publishedJson(request, content[name], etag);
  });
