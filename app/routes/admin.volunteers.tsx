import type { Route } from "./+types/admin.volunteers";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { Pagination } from "~/components/ui/pagination";
import { useQuery } from "~/components/ui/use-query";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { VolunteerTable } from "~/features/volunteers/components/volunteer-table";
import { deleteVolunteer, volunteersPage } from "~/features/volunteers/volunteers.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { requestedPage } from "~/lib/pagination";

// /admin/volunteers: the sign-ups, newest first, 50 a page; the CSV; delete one on request.
export const loader = pageWork("The volunteers page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "people");
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  return { volunteers: await volunteersPage(context.services, page) };
});

export const action = pageWork("Deleting a volunteer sign-up", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "people");
  return answerForm(request, {
    delete: async (form) => {
      const deleted = await deleteVolunteer(
        context.services,
        staff,
        formText(form, "id", 100),
        context.services.clock.now(),
      );
      if (!deleted) throw new AppError("not-found", "That sign-up was already deleted.");
      return { message: "The sign-up is deleted." };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Volunteers");

export default function AdminVolunteers({ loaderData: { volunteers }, actionData }: Route.ComponentProps) {
  const search = useQuery();
  return (
    <main id="main" className="page">
      <h1>Volunteers</h1>
      {actionData ? <FormNotice ok={actionData.ok}>{actionData.message}</FormNotice> : null}
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
