import { Outlet } from "react-router";
import type { Route } from "./+types/admin";
import { ErrorPage } from "~/components/layout/error-page";
import { mailMode } from "~/features/emails/mail-mode";
import { AdminShell } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// The staff area's frame (every /admin page but sign-in): who is signed in, and Sign out; the staff
// navigation by the member's role; and what is not real (e-mail to the outbox folder, demo payments).
export const loader = pageWork("The staff area", async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireStaffPage(context.services, request, "signed-in");
  return {
    email: user.email,
    role: user.role,
    status: {
      mail: mailMode(context.services),
      payments: context.services.payments.name === "offline" ? ("demo" as const) : ("real" as const),
    },
  };
});

export function headers() {
  return { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store" };
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell email={loaderData.email} role={loaderData.role} status={loaderData.status}>
      <Outlet />
    </AdminShell>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
