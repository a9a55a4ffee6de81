import type { Route } from "./+types/api.admin.images";
import { requireStaff } from "~/features/staff/staff.server";
import { uploadPicture } from "~/infra/images/uploads.server";
import { allowMethods, apiRoute, noStore, readBodyBytes } from "~/infra/http/api.server";
import { bodyLimits, bodyTooLarge } from "~/infra/http/body-limits.server";
import { AppError } from "~/lib/errors";
import { uploadTypes } from "~/lib/images";

/** What the body may be declared as: never a type a page on another site could post without asking first. */
const bodyTypes = [...uploadTypes, "application/octet-stream"];

// POST /api/admin/images?name=<file name>: the picture's bytes as the body (Content-Type one of
// bodyTypes; the type is read from the bytes). 201 {image: "uploads/<id>", width, height}: the
// name to use as an event's posterImage, a gallery image or a reviewer's photo.
export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Uploading a picture", async () => {
    allowMethods(request, "POST");
    const user = await requireStaff(context.services, request, ["events", "pages"]);
    const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!bodyTypes.includes(type)) {
      throw new AppError(
        "unsupported-media-type",
        `Send the picture's bytes as the body, with Content-Type ${bodyTypes.join(", ")}.`,
      );
    }
    const bytes = await readBodyBytes(request, bodyLimits.picture, (size) => bodyTooLarge("picture", size));
    const { db, clock } = context.services;
    const originalName = new URL(request.url).searchParams.get("name") ?? "";
    const uploaded = await uploadPicture(db, bytes, { originalName, uploadedBy: user.id, now: clock.now() });
    return Response.json(uploaded, { status: 201, headers: noStore });
  });

// Anything but POST: refused, to staff as to anyone else.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Uploading a picture", async () => {
    await requireStaff(context.services, request, ["events", "pages"]);
    allowMethods(request, "POST");
    return new Response(null, { status: 204 });
  });
