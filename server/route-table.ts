import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

// The site's routes as the server matches a path against them, outside React Router's own
// handling: the page cache (which pages it may keep) and the metrics (which route a request was
// for) ask here, so both read the one route table the site renders with.

/** The route a path matched: its id, its whole pattern ("/events/:slug"), and whether it matched all of the path. */
export interface RouteMatch {
  id: string;
  pattern: string;
  whole: boolean;
}

type TableRoute = RouteObject & { id: string; pattern: string };

/** Characters of paths a table remembers, at most, before it forgets them all. */
const rememberedChars = 256 * 1024;

export class RouteTable {
  private readonly routes: TableRoute[];
  /** Paths already matched: React Router flattens and ranks every route on each match (about 1 ms). */
  private readonly known = new Map<string, RouteMatch | null>();
  private knownChars = 0;

  constructor(routes: ServerBuild["routes"]) {
    const childrenOf = (parentId: string | undefined, parentPattern: string): TableRoute[] =>
      Object.values(routes).flatMap((route): TableRoute[] => {
        if (!route || route.parentId !== parentId) return [];
        if (route.index) return [{ id: route.id, index: true, caseSensitive: true, pattern: parentPattern || "/" }];
        const pattern = route.path ? `${parentPattern.replace(/\/$/, "")}/${route.path}` : parentPattern;
        const children = childrenOf(route.id, pattern);
        return [
          {
            id: route.id,
            path: route.path,
            caseSensitive: true,
            pattern: pattern || "/",
            ...(children.length > 0 && { children }),
          },
        ];
      });
    this.routes = childrenOf(undefined, "");
  }

  /**
   * The deepest route for `path` (no query string), matched letter for letter: its `%` escaped so
   * that nothing is decoded, the routes case-sensitive. React Router itself is kinder (`/About`
   * is the about page); a caller that needs the exact address checks `whole`.
   */
  match(path: string): RouteMatch | undefined {
    const known = this.known.get(path);
    if (known !== undefined) return known ?? undefined;
    const leaf = matchRoutes(this.routes, { pathname: path.replaceAll("%", "%25") })?.at(-1);
    const found = leaf
      ? { id: leaf.route.id, pattern: leaf.route.pattern, whole: leaf.pathnameBase === path }
      : undefined;
    if (this.knownChars + path.length > rememberedChars) {
      this.known.clear();
      this.knownChars = 0;
    }
    this.known.set(path, found ?? null);
    this.knownChars += path.length;
    return found;
  }
}
