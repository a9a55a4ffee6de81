import type { Route } from "./+types/images.uploads";
import { contentTypes, renditions } from "~/infra/images/renditions.server";
import { readRendition } from "~/infra/images/uploads.server";
import { allowMethods, apiRoute } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";
import type { ImageFormat } from "~/lib/images";

const fileName = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d{1,5})\.(avif|webp|jpg)$/;

// GET /images/uploads/<id>-<width>.<format>: a rendition of a picture staff uploaded, from the
// database, at the URL imageUrl() gives its name "uploads/<id>" (content pictures at /images/ are
// files, served before this route is reached). A rendition never changes, so browsers keep it.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Serving an uploaded picture", async () => {
    allowMethods(request, "GET", "HEAD");
    const match = fileName.exec(params.file);
    const width = Number(match?.[2]);
    const format = match?.[3] as ImageFormat | undefined;
    if (!match || !renditions.some((r) => r.width === width && r.format === format)) throw noSuchPicture();
    const etag = `"${match[1]}-${width}-${format}"`;
    const headers = {
      "Content-Type": contentTypes[format!],
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: etag,
    };
    if (
      request.headers
        .get("If-None-Match")
        ?.split(/\s*,\s*/)
        .includes(etag)
    ) {
      return new Response(null, { status: 304, headers });
    }
    const bytes = await readRendition(context.services.db, match[1]!, width, format!);
    if (!bytes) throw noSuchPicture();
    return new Response(new Uint8Array(bytes), {
      headers: { ...headers, "Content-Length": String(bytes.length) },
    });
  });

const noSuchPicture = () => new AppError("not-found", "There is no such picture.");
