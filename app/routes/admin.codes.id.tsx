import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/admin.codes.id";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { useQuery } from "~/components/ui/use-query";
import {
  CodeBookingsTable,
  PromoCodeFacts,
  PromoCodeLimitsForm,
} from "~/features/booking/components/promo-codes-staff";
import {
  changePromoCodeLimits,
  codeLimitMessages,
  promoCodeDetail,
  switchPromoCode,
} from "~/features/booking/promo-codes.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";

// /admin/codes/:id: one promo code, its uses and the money it gave away, the bookings that used
// it, the switch that stops new bookings using it (decision 084), and its limits (decision 097).
export const loader = pageWork("A promo code's page", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "events");
  const now = context.services.clock.now();
  const found = await promoCodeDetail(context.services.db, params.codeId, now);
  if (!found) throw new AppError("not-found", "There is no such code.");
  return { ...found, now: now.toISOString() };
});

export const action = pageWork("Changing a promo code", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "events");
  const now = context.services.clock.now();
  return answerForm(request, {
    limits: async (form) => {
      const limits = { maxUses: formText(form, "maxUses", 20), validUntil: formText(form, "validUntil", 20) };
      await changePromoCodeLimits(context.services.db, staff, params.codeId, limits, now);
      return { message: codeLimitMessages.saved };
    },
    off: async () => {
      await switchPromoCode(context.services.db, staff, params.codeId, true, now);
      return { message: "The code is switched off: no new booking can use it." };
    },
    on: async () => {
      await switchPromoCode(context.services.db, staff, params.codeId, false, now);
      return { message: "The code is switched back on." };
    },
  });
});

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `Promo code ${data.code.code}` : "Promo code");

export default function PromoCodePage({ loaderData, actionData }: Route.ComponentProps) {
  const { code, bookings, now } = loaderData;
  const busy = useNavigation().state !== "idle";
  const search = useQuery();
  // A refused change of limits is said at its form; every other answer at the top.
  const limitsRefused = actionData?.intent === "limits" && !actionData.ok;
  const notice = limitsRefused
    ? ""
    : actionData?.message || (search.get("saved") === "created" ? "The code is made." : "");
  return (
    <main id="main" className="page narrow">
      <Breadcrumbs here={code.code} />
      <h1>Promo code {code.code}</h1>
      {notice ? <FormNotice ok={actionData?.ok ?? true}>{notice}</FormNotice> : null}
      <PromoCodeFacts code={code} now={now} />
      <Form method="post" className="form">
        <input type="hidden" name="intent" value={code.off ? "on" : "off"} />
        <button type="submit" className={code.off ? "button" : "button button-secondary"} aria-disabled={busy}>
          {code.off ? "Switch the code back on" : "Switch the code off"}
        </button>
      </Form>
      <section className="section" aria-labelledby="code-limits">
        <h2 id="code-limits">Change the limits</h2>
        <p>
          Raise or remove the maximum uses, or move the last day. The discount and what it covers stay as they are: for
          a different offer, make a new code.
        </p>
        <PromoCodeLimitsForm
          key={`${code.maxUses}-${code.validUntil}`}
          code={code}
          values={limitsRefused ? actionData.values : undefined}
          errors={limitsRefused ? actionData.fields : undefined}
          message={limitsRefused ? actionData.message : undefined}
          busy={busy}
        />
      </section>
      <section className="section" aria-labelledby="code-bookings">
        <h2 id="code-bookings">Bookings with this code</h2>
        <CodeBookingsTable bookings={bookings} />
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
