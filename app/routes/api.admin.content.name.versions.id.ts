import type { Route } from "./+types/api.admin.content.name.versions.id";
import { isContentName } from "~/features/content/content.server";
import { issueFields } from "~/features/content/store";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

const noSuchVersion = () => new AppError("not-found", "There is no such version of this page's content.");

function versionId(id: string) {
  return /^[0-9]{1,9}$/.test(id) ? Number(id) : 0;
}

// GET /api/admin/content/:name/versions/:id: one published version with its content as stored,
// and what today's checks say of it (an old version may no longer pass a changed schema).
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading a version of a page's content", async () => {
    await requireStaff(context.services, request, "pages");
    if (!isContentName(params.name)) throw noSuchVersion();
    const store = context.services.contentStore;
    const version = await store.version(params.name, versionId(params.id));
    if (!version) throw noSuchVersion();
    return Response.json({ ...version, issues: store.validate(params.name, version.content) }, { headers: noStore });
  });

// POST /api/admin/content/:name/versions/:id (restore): publishes a copy of this version as the
// newest. 201 with the new version.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Restoring a version of a page's content", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "pages");
    if (!isContentName(params.name)) throw noSuchVersion();
    const result = await context.services.contentStore.restore(params.name, versionId(params.id), staff);
    if (!result) throw noSuchVersion();
    if (!result.ok) {
      throw new AppError("invalid", "This version cannot be published again as it is: today's checks refuse it.", {
        fields: issueFields(result.issues),
      });
    }
    return Response.json(result.value, { status: 201, headers: noStore });
  });
