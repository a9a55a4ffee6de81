import type { Route } from "./+types/api.admin.content.name.versions";
import { isContentName } from "~/features/content/content.server";
import { issueFields } from "~/features/content/store";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { AppError } from "~/lib/errors";

// POST /api/admin/content/:name/versions {content}: publishes the content as the page's next
// version, live at once on every server process. 201 with the version; 400 with a message per
// field (`fields`, by dotted path such as "activeProjects.2.title") and nothing stored.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Publishing a page's content", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "pages");
    if (!isContentName(params.name)) throw new AppError("not-found", "There is no such page content.");
    const body = await readJsonBody(request, bodyLimits.staff);
    const result = await context.services.contentStore.publish(params.name, body.content, staff);
    if (!result.ok) {
      throw new AppError("invalid", "The content was not published: put the mistakes right first.", {
        fields: issueFields(result.issues),
      });
    }
    return Response.json(result.value, { status: 201, headers: noStore });
  });

// GET: the versions are listed by GET /api/admin/content/:name. Staff only, like every staff address.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Reading a page's versions", async () => {
    await requireStaff(context.services, request, "pages");
    throw new AppError("method-not-allowed", "Use POST to publish; GET /api/admin/content/:name lists the versions.", {
      headers: { Allow: "POST" },
    });
  });
