import type { Route } from "./+types/images.share";
import { allowMethods, apiRoute } from "~/infra/http/api.server";
import { shareImage } from "~/infra/images/share-image.server";
import { AppError } from "~/lib/errors";

// GET /images/share/<name>.jpg: the 1200×630 JPEG a shared link shows for a picture (a content
// picture or one staff uploaded), named as pages name it; see shareImageUrl() and page-meta.ts.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Serving a link-preview picture", async () => {
    allowMethods(request, "GET", "HEAD");
    const file = params["*"] ?? "";
    const picture = file.endsWith(".jpg")
      ? await shareImage(context.services.db, context.services.pictures.contentImagesDir, file.slice(0, -4))
      : undefined;
    if (!picture) throw new AppError("not-found", "There is no such picture.");
    return new Response(new Uint8Array(picture.bytes), {
      headers: {
        "Content-Type": "image/jpeg",
        "Content-Length": String(picture.bytes.length),
        "Cache-Control": picture.immutable ? "public, max-age=31536000, immutable" : "public, max-age=86400",
      },
    });
  });
