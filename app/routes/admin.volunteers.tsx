import { data } from "react-router";
import type { Route } from "./+types/admin.volunteers";
import { ErrorPage } from "~/components/layout/error-page";
import { Pagination } from "~/components/ui/pagination";
import { useQuery } from "~/components/ui/use-query";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { VolunteerTable } from "~/features/volunteers/components/volunteer-table";
import { deleteVolunteer, volunteersPage } from "~/features/volunteers/volunteers.server";
import { readFormBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { pageWork } from "~/infra/http/page.server";
import { requestedPage } from "~/lib/pagination";

// /admin/volunteers: the sign-ups, newest first, 50 a page; the CSV; delete one on request.
export const loader = pageWork("The volunteers page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  return { volunteers: await volunteersPage(context.services, page) };
});

export const action = pageWork("Deleting a volunteer sign-up", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request);
  const form = await readFormBody(request, bodyLimits.staff);
  if (form.get("intent") !== "delete") return data({ message: "Nothing was asked for." }, { status: 400 });
  const deleted = await deleteVolunteer(
    context.services,
    staff,
    String(form.get("id") ?? ""),
    context.services.clock.now(),
  );
  return deleted
    ? { message: "The sign-up is deleted." }
    : data({ message: "That sign-up was already deleted." }, { status: 404 });
});

export const meta: Route.MetaFunction = () => adminMeta("Volunteers");

export default function AdminVolunteers({ loaderData: { volunteers }, actionData }: Route.ComponentProps) {
  const search = useQuery();
  return (
    <main id="main" className="page">
      <h1>Volunteers</h1>
      {actionData ? (
        <p className="notice" role="status">
          {actionData.message}
        </p>
      ) : null}
      <p>
        <a href="/admin/volunteers.csv" className="button button-secondary" download>
          Download CSV
        </a>
      </p>
      {volunteers.total === 0 ? (
        <p>No one has signed up yet.</p>
      ) : (
        <>
          <p>{volunteers.total} in all, newest first.</p>
          <VolunteerTable volunteers={volunteers.rows} />
        </>
      )}
      <Pagination
        page={volunteers.page}
        pages={volunteers.pages}
        total={volunteers.total}
        search={search}
        label="Pages of volunteers"
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
