import type { Config } from "../config.server";

/**
 * The address absolute links start with (link previews, the sitemap, calendar files), without a
 * trailing slash: PUBLIC_URL when it is set, else the origin this request came to, so the embedded
 * default shares links that work wherever it runs.
 */
export function publicOrigin(config: Pick<Config, "publicUrl" | "publicUrlSet">, request: Request): string {
  return config.publicUrlSet ? config.publicUrl.replace(/\/+$/, "") : new URL(request.url).origin;
}
