import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin.gift-aid._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { Pagination } from "~/components/ui/pagination";
import { BusyButton } from "~/components/ui/spinner";
import { TableScroll } from "~/components/ui/table-scroll";
import { useQuery } from "~/components/ui/use-query";
import { ClaimRowsTable } from "~/features/donations/components/staff-donations";
import {
  claimSummary,
  donationsReadyToClaim,
  markClaimed,
  pastClaims,
} from "~/features/donations/gift-aid-claims.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDate, londonDay } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { requestedPage, slicePage } from "~/lib/pagination";
import { plural } from "~/lib/plural";

// /admin/gift-aid: the donations ready to claim, HMRC's claim schedule for them, Mark as claimed,
// and past claims. The CSV and the claim carry the very donations this page listed.
export const loader = pageWork("The Gift Aid page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "money");
  const { clock } = context.services;
  const ready = await donationsReadyToClaim(context.services);
  return {
    ready: slicePage(ready, requestedPage(new URL(request.url).searchParams.get("page"))),
    readyIds: ready.map((row) => row.donationId),
    summary: claimSummary(ready),
    past: await pastClaims(context.services),
    today: londonDay(clock.now()),
  };
});

export const action = pageWork("Marking a Gift Aid claim", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "money");
  return answerForm(request, {
    "mark-claimed": async (form) => {
      const { claimId, summary } = await markClaimed(
        context.services,
        staff,
        { claimedOn: formText(form, "claimedOn", 100), donationIds: form.getAll("donationId").map(String) },
        context.services.clock.now(),
      );
      return {
        message: `Marked as claimed: ${plural(summary.count, "donation")}, ${formatPounds(summary.totalPence)}, Gift Aid ${formatPounds(summary.giftAidPence)}.`,
        id: claimId,
      };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Gift Aid claims");

export default function AdminGiftAid({ loaderData, actionData }: Route.ComponentProps) {
  const { ready, readyIds, summary, past, today } = loaderData;
  const search = useQuery();
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "mark-claimed";
  const dateError = actionData?.fields?.claimedOn;
  const ids = readyIds.map((id) => <input key={id} type="hidden" name="donationId" value={id} />);
  return (
    <main id="main" className="page">
      <h1>Gift Aid claims</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok}>
          {actionData.message}
          {actionData.id ? (
            <>
              {" "}
              <Link to={`/admin/gift-aid/claims/${actionData.id}`}>See the claim</Link>
            </>
          ) : null}
        </FormNotice>
      ) : null}
      <section className="section" aria-labelledby="ready-heading">
        <h2 id="ready-heading">Ready to claim</h2>
        <p>
          Paid donations, not refunded and not yet claimed, covered by a Gift Aid declaration. Tickets are never
          donations, so never here.
        </p>
        {summary.count === 0 ? (
          <p>No donations are ready to claim.</p>
        ) : (
          <>
            <p className="gift-aid-summary">
              {plural(summary.count, "donation")} of {formatPounds(summary.totalPence)} in all; Gift Aid to come:{" "}
              {formatPounds(summary.giftAidPence)}.
            </p>
            {/* A plain form: the browser saves the file the answer carries. */}
            <form method="post" action="/admin/gift-aid/claim.csv">
              {ids}
              <button type="submit" className="button button-secondary">
                Download claim (CSV)
              </button>
            </form>
            <ClaimRowsTable rows={ready.rows} label="Table of donations ready to claim" />
            <Pagination
              page={ready.page}
              pages={ready.pages}
              total={ready.total}
              search={search}
              label="Pages of donations ready to claim"
            />
            <Form method="post" className="form gift-aid-mark" noValidate>
              <input type="hidden" name="intent" value="mark-claimed" />
              {ids}
              <Field
                id="claimed-on"
                label="Claim date"
                hint={`The day the claim was sent to HMRC. ${summary.count === 1 ? "This donation is" : `These ${plural(summary.count, "donation")} are`} then never claimed again.`}
                input={{ name: "claimedOn", type: "date", max: today, defaultValue: today, required: true }}
                error={dateError}
              />
              <div className="form-actions">
                <BusyButton busy={saving} busyLabel="Saving…" aria-disabled={saving}>
                  Mark as claimed
                </BusyButton>
              </div>
            </Form>
          </>
        )}
      </section>
      <section className="section" aria-labelledby="past-heading">
        <h2 id="past-heading">Past claims</h2>
        {past.length === 0 ? (
          <p>No claims have been made yet.</p>
        ) : (
          <TableScroll label="Table of past claims">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Claim date</th>
                  <th scope="col">Donations</th>
                  <th scope="col">Total</th>
                  <th scope="col">Gift Aid</th>
                  <th scope="col">By</th>
                  <th scope="col">
                    <span className="visually-hidden">Download</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {past.map((claim) => (
                  <tr key={claim.id}>
                    <th scope="row">
                      <Link to={`/admin/gift-aid/claims/${claim.id}`}>
                        {londonDate(`${claim.claimedOn}T12:00:00Z`)}
                      </Link>
                    </th>
                    <td data-label="Donations">{claim.count}</td>
                    <td data-label="Total">{formatPounds(claim.totalPence)}</td>
                    <td data-label="Gift Aid">{formatPounds(claim.giftAidPence)}</td>
                    <td data-label="By">{claim.staffEmail}</td>
                    <td data-label="Download">
                      <a
                        href={`/admin/gift-aid/claims/${claim.id}/claim.csv`}
                        download
                        aria-label={`Download the claim of ${londonDate(`${claim.claimedOn}T12:00:00Z`)}`}
                      >
                        Download
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
