import { Form } from "react-router";
import type { Route } from "./+types/admin.audit";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { auditActions, auditPage, isAuditAction } from "~/infra/audit/audit.server";
import { pageWork } from "~/infra/http/page.server";
import { londonStamp } from "~/lib/london-time";
import { requestedPage } from "~/lib/pagination";
import { TableScroll } from "~/components/ui/table-scroll";
import { useQuery } from "~/components/ui/use-query";

// /admin/audit: who did what and when, newest first, 50 a page.
export const loader = pageWork("The audit log", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "site");
  const search = new URL(request.url).searchParams;
  const kind = search.get("action");
  const only = isAuditAction(kind) ? kind : undefined;
  const entries = await auditPage(context.services.db, requestedPage(search.get("page")), only);
  return { entries, only, kinds: Object.entries(auditActions) };
});

export const meta: Route.MetaFunction = () => adminMeta("Audit log");

export default function AuditLog({ loaderData: { entries, only, kinds } }: Route.ComponentProps) {
  const search = useQuery();
  return (
    <main id="main" className="page">
      <h1>Audit log</h1>
      <p>What staff have done, newest first. Entries name no visitor, so they stay when a person's data is erased.</p>
      <Form method="get" className="audit-filter">
        <Field
          id="audit-action"
          label="What to show"
          select={{ name: "action", defaultValue: only ?? "" }}
          key={only ?? ""}
        >
          <option value="">Everything</option>
          {kinds.map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </Field>
        <button type="submit" className="button button-secondary">
          Show
        </button>
      </Form>
      {entries.total === 0 ? (
        <p>{only ? "None of these yet." : "Nothing yet."}</p>
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
                  <td data-label="When">{londonStamp(entry.at)}</td>
                  <td data-label="Who">{entry.by}</td>
                  <th scope="row">{entry.label}</th>
                  <td data-label="Details">
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
