import type { Route } from "./+types/images.share";
import { allowMethods, apiRoute } from "~/infra/http/api.server";
import { uploadShareImage } from "~/infra/images/share-image.server";
import { AppError } from "~/lib/errors";

// GET /images/share/<name>.jpg: the 1200×630 JPEG a shared link shows for a picture, named as pages
// name it; see shareImageUrl() and page-meta.ts. A content picture's is a file the build made
// (public/images/share/), answered by the static files before this route, so only an upload's,
// kept in the database and never changed, is answered here (decision 057).
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Serving a link-preview picture", async () => {
    allowMethods(request, "GET", "HEAD");
    const file = params["*"] ?? "";
    const bytes = file.endsWith(".jpg") ? await uploadShareImage(context.services.db, file.slice(0, -4)) : undefined;
    if (!bytes) throw new AppError("not-found", "There is no such picture.");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "Content-Type": "image/jpeg",
        "Content-Length": String(bytes.length),
        "Cache-Control": "public, max-age=31536000, immutable",
      },
    });
  });
