import { redirect } from "react-router";
import type { Route } from "./+types/admin.sign-out";
import { signOut } from "~/features/staff/sign-in.server";
import { pageWork } from "~/infra/http/page.server";

// POST /admin/sign-out (the Sign out button on every staff page): ends the session, back to sign-in.
export const action = pageWork("Signing staff out", async ({ request, context }: Route.ActionArgs) => {
  const { cookie } = await signOut(context.services, request);
  return redirect("/admin/sign-in", { headers: { "Set-Cookie": cookie } });
});

// A stray GET (a bookmark) signs nobody out: it goes to the staff area.
export const loader = () => redirect("/admin");
