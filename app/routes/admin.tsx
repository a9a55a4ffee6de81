import { Outlet } from "react-router";
import type { Route } from "./+types/admin";
import { ErrorPage } from "~/components/layout/error-page";
import { AdminShell } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// The staff area's frame (every /admin page but sign-in): who is signed in, and Sign out.
export const loader = pageWork("The staff area", async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireStaffPage(context.services, request, "signed-in");
  return { email: user.email, role: user.role };
});

export function headers() {
  return { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store" };
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell email={loaderData.email}>
      <Outlet />
    </AdminShell>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
