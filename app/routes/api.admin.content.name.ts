import type { Route } from "./+types/api.admin.content.name";
import { isContentName } from "~/features/content/content.server";
import { issueFields } from "~/features/content/store";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { AppError } from "~/lib/errors";

// The staff API for one page's content (docs/decisions/031-content-in-the-database.md); `name` is
// the content's folder name under content/ (site, home, about, contact, volunteering, fundraising,
// payment).

function contentName(name: string) {
  if (!isContentName(name)) throw new AppError("not-found", "There is no such page content.");
  return name;
}

// GET /api/admin/content/:name: what is published (with its version), the draft if any, every
// version newest first, and any stored version passed over because it no longer passes the schema.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading a page's content", async () => {
    await requireStaff(context.services, request, "pages");
    const name = contentName(params.name);
    const store = context.services.contentStore;
    const [content, draft, history] = await Promise.all([
      context.services.content(),
      store.draft(name),
      store.history(name),
    ]);
    const warnings = store.warnings().filter((warning) => warning.name === name);
    return Response.json(
      { name, published: content[name], draft: draft ?? null, history, warnings },
      { headers: noStore },
    );
  });

// PUT /api/admin/content/:name {content}: keeps the draft (mistakes and all), answering its issues.
// DELETE /api/admin/content/:name: throws the draft away (204, or 404 when there was none).
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Saving a page's draft", async () => {
    allowMethods(request, "PUT", "DELETE");
    const staff = await requireStaff(context.services, request, "pages");
    const name = contentName(params.name);
    const store = context.services.contentStore;
    if (request.method === "DELETE") {
      if (!(await store.discardDraft(name, staff))) throw new AppError("not-found", "There is no draft to discard.");
      return new Response(null, { status: 204, headers: noStore });
    }
    const body = await readJsonBody(request, bodyLimits.staff);
    const saved = await store.saveDraft(name, body.content, staff);
    return Response.json({ ...saved, fields: issueFields(saved.issues) }, { headers: noStore });
  });
