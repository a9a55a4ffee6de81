import type express from "express";
import type { ContentName } from "~/features/content/schema";
import { isContentName } from "~/features/content/content.server";
import { staffForRequest } from "~/features/staff/staff.server";
import type { Services } from "./services";

// Staff see a public page with a draft in place of the published content before they publish it:
// `/volunteering?preview=volunteering` (several names: `?preview=home,site`). Only for a signed-in
// member of staff, only on the public pages (never the JSON contract, which caches may keep), and
// answered `Cache-Control: no-store` with the layout's "Preview: not yet published" banner.
// Anyone else gets the published page. docs/decisions/031-content-in-the-database.md.

/** What the page knows of a preview: the drafts shown, and those left out for their mistakes. */
export interface ContentPreview {
  shown: ContentName[];
  invalid: ContentName[];
}

/** The public pages (and their data requests, `/_root.data` being the home page's) a preview applies to. */
const previewablePath = /^\/(?:_root|about|contact|volunteering|fundraising|payment|project\/[a-z0-9-]+)?(?:\.data)?$/;

/** The names asked for in `?preview=`, if this request may be a preview at all. */
function requestedNames(req: express.Request): ContentName[] {
  if (req.method !== "GET" && req.method !== "HEAD") return [];
  if (!previewablePath.test(req.path)) return [];
  const asked = req.query.preview;
  if (typeof asked !== "string") return [];
  return [...new Set(asked.split(",").map((name) => name.trim()))].filter(isContentName);
}

/**
 * The services a request sees: the site's own, or for a staff preview the same with the drafts in
 * place of the published content, and what the page needs to say it is a preview.
 */
export async function servicesFor(
  services: Services,
  req: express.Request,
): Promise<{ services: Services; contentPreview?: ContentPreview }> {
  const names = requestedNames(req);
  if (names.length === 0) return { services };
  const staff = await staffForRequest(
    services,
    new Request("http://site/", { headers: { cookie: req.headers.cookie ?? "" } }),
  );
  if (!staff) return { services };
  const { content, shown, invalid } = await services.contentStore.preview(names);
  return {
    services: { ...services, content: () => Promise.resolve(content) },
    contentPreview: { shown, invalid },
  };
}
