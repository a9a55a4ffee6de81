import { redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.codes.new";
import { ErrorPage } from "~/components/layout/error-page";
import { PromoCodeForm } from "~/features/booking/components/promo-codes-staff";
import { codeFormChoices, createPromoCode } from "~/features/booking/promo-codes.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/codes/new: a new promo code (decision 084), checked field by field; the audit log says who made it.
export const loader = pageWork("The new promo code page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "events");
  return { events: await codeFormChoices(context.services.db, context.services.clock.now()) };
});

export const action = pageWork("Making a promo code", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "events");
  return answerForm(request, async (form) => {
    const made = await createPromoCode(
      context.services.db,
      staff,
      {
        code: formText(form, "code", 100),
        eventId: formText(form, "eventId", 100),
        kind: formText(form, "kind", 20),
        percentOff: formText(form, "percentOff", 20),
        amountOff: formText(form, "amountOff", 20),
        ticketTypeIds: form
          .getAll("ticketTypeIds")
          .slice(0, 100)
          .flatMap((value) => (typeof value === "string" ? [value.slice(0, 60)] : [])),
        maxUses: formText(form, "maxUses", 20),
        validUntil: formText(form, "validUntil", 20),
      },
      context.services.clock.now(),
    );
    return redirect(`/admin/codes/${made.id}?saved=created`);
  });
});

export const meta: Route.MetaFunction = () => adminMeta("New promo code");

export default function NewPromoCode({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  return (
    <main id="main" className="page narrow">
      <Breadcrumbs here="New promo code" />
      <h1>New promo code</h1>
      <PromoCodeForm
        events={loaderData.events}
        values={actionData?.values ?? {}}
        errors={actionData?.fields}
        message={actionData && !actionData.ok ? actionData.message : undefined}
        busy={busy}
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
