import type { Route } from "./+types/api.content";
import { contentNameForPageKey } from "~/features/content/content.server";

// Spec call 2: a page's texts by page key (AboutPage, VolunteeringPage, ContactPage, PaymentPage,
// FundraisingPage, HomePage).
export async function loader({ context, params }: Route.LoaderArgs) {
  const name = contentNameForPageKey(params.pageKey);
  if (!name) return Response.json({ error: `No content for page key "${params.pageKey}".` }, { status: 404 });
  const content = await context.services.content();
  return Response.json(content[name], { headers: { "Cache-Control": "public, max-age=300" } });
}
