import { redirect } from "react-router";
import type { Route } from "./+types/project.redirect";

// The specification's /project path carried the project in navigation state only; a project now
// has its own address (/project/:slug). A bare /project, or the old ?slug= form, is sent on.
export function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).searchParams.get("slug");
  if (slug && /^[a-z0-9-]+$/.test(slug)) return redirect(`/project/${slug}`, 301);
  return redirect("/#active-projects", 302);
}
