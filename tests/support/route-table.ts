import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { ServerBuild } from "react-router";
import routes from "../../app/routes";

// The route table of app/routes.ts, walked once for every test that goes through all the routes.

export interface RouteEntry {
  /** React Router's id for it: its file without the extension (`routes/about`). */
  id: string;
  /** Its parent's id (`root` for a route at the top of app/routes.ts). */
  parentId: string;
  /** Its module, from app/ (`routes/about.tsx`). */
  file: string;
  /** Its own path, as app/routes.ts writes it (`:id`); none for an index route. */
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  /** Its full path without the leading slash: `about`, `admin/events/:id`, `api/*`; `` for the home page. */
  pattern: string;
}

function walk(entries: RouteConfigEntry[], parentId: string, prefix: string): RouteEntry[] {
  return entries.flatMap((entry) => {
    const id = entry.id ?? entry.file.replace(/\.[^/.]+$/, "");
    const pattern = entry.index ? prefix : [prefix, entry.path].filter(Boolean).join("/");
    const own: RouteEntry = {
      id,
      parentId,
      file: entry.file,
      pattern,
      ...(entry.path !== undefined && { path: entry.path }),
      ...(entry.index && { index: true }),
      ...(entry.caseSensitive && { caseSensitive: true }),
    };
    return [own, ...walk(entry.children ?? [], id, pattern)];
  });
}

/** Every route of app/routes.ts, each parent before its children. */
export const routeTable: RouteEntry[] = walk(routes, "root", "");

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];

/**
 * The routes as the production build hands them to the server (`ServerBuild["routes"]`): the root
 * and every route of app/routes.ts with its module. For Vitest, which loads the modules itself.
 */
export async function serverRoutes(): Promise<ServerBuild["routes"]> {
  const load = (file: string) => import(/* @vite-ignore */ path.resolve("app", file)) as Promise<RouteModule>;
  const manifest: ServerBuild["routes"] = { root: { id: "root", path: "", module: await load("root.tsx") } };
  for (const route of routeTable) {
    const { file: _file, pattern: _pattern, ...shape } = route;
    manifest[route.id] = { ...shape, module: await load(route.file) };
  }
  return manifest;
}
