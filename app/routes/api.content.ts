import type { Route } from "./+types/api.content";
import { contentNameForPageKey } from "~/features/content/content.server";
import { apiRoute } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// Specification call 2 (docs/specification.md): a page's texts by page key (AboutPage,
// VolunteeringPage, ContactPage, PaymentPage, FundraisingPage, HomePage, SiteSettings).
export const loader = ({ context, params }: Route.LoaderArgs) =>
  apiRoute("Reading page content by key", async () => {
    const name = contentNameForPageKey(params.pageKey);
    if (!name) throw new AppError("not-found", `No content for page key "${params.pageKey}".`);
    const content = await context.services.content();
    return Response.json(content[name], { headers: { "Cache-Control": "public, max-age=300" } });
  });
