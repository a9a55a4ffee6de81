import { useSearchParams } from "react-router";
import type { Route } from "./+types/admin.audit";
import { ErrorPage } from "~/components/layout/error-page";
import { Pagination } from "~/components/ui/pagination";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { auditPage } from "~/infra/audit/audit.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDate, londonTime } from "~/lib/london-time";
import { requestedPage } from "~/lib/pagination";
import { TableScroll } from "~/components/ui/table-scroll";

// /admin/audit: who did what and when, newest first, 50 a page.
export const loader = pageWork("The audit log", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  return { entries: await auditPage(context.services.db, page) };
});

export const meta: Route.MetaFunction = () => adminMeta("Audit log");

export default function AuditLog({ loaderData: { entries } }: Route.ComponentProps) {
  const [search] = useSearchParams();
  return (
    <main id="main" className="page">
      <h1>Audit log</h1>
      <p>What staff have done, newest first. Entries name no visitor, so they stay when a person's data is erased.</p>
      {entries.total === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <TableScroll label="Table of audit entries">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.rows.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    {londonDate(entry.at)} {londonTime(entry.at)}
                  </td>
                  <td>{entry.by}</td>
                  <th scope="row">{entry.label}</th>
                  <td>
                    {entry.summary}
                    <br />
                    <small className="booking-ref">{entry.subject}</small>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination
        page={entries.page}
        pages={entries.pages}
        total={entries.total}
        search={search}
        label="Pages of the log"
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
