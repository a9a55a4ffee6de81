import { Form } from "react-router";
import type { Route } from "./+types/giving";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { useNoticeFocus } from "~/components/ui/use-notice-focus";
import { sendLinksTo } from "~/features/donations/gift-changes.server";
import { donationLimits } from "~/features/donations/schema";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { pageMeta } from "~/lib/page-meta";

// /giving: a donor who has lost their private link asks for a fresh one by e-mail address
// (docs/decisions/090-donors-manage-their-gift.md). Each of the address's monthly gifts gets its
// own link, sent to that address only; the answer is the same whether or not it has any.
export const loader = pageWork("The monthly gift link page", async () => ({}));

export const action = pageWork("Asking for a monthly gift's link", async ({ request, context }: Route.ActionArgs) =>
  answerForm(request, async (form) => {
    const { message } = await sendLinksTo(
      context.services,
      { email: formText(form, "email", 200) },
      context.clientAddress,
    );
    return { message };
  }),
);

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Manage your monthly gift", "Get a link to change, pause or cancel your monthly gift.", {
    site: matches[0].loaderData?.share,
    path: "/giving",
  }),
];

export default function GivingLinks({ actionData }: Route.ComponentProps) {
  const notice = useNoticeFocus(actionData);
  const refused = actionData && !actionData.ok ? actionData : undefined;
  return (
    <main id="main" className="page narrow">
      <h1>Manage your monthly gift</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok} focusRef={notice}>
          {actionData.message}
        </FormNotice>
      ) : null}
      <p>
        Every receipt of your monthly gift carries a private link to change its amount or day, pause it, cancel it or
        update Gift Aid. If you cannot find one, enter the e-mail address you give with and we will send you a fresh
        link. You need no account or password.
      </p>
      <Form method="post" className="form" noValidate>
        <Field
          id="giving-email"
          label="Your e-mail address"
          input={{
            name: "email",
            type: "email",
            autoComplete: "email",
            maxLength: donationLimits.email,
            required: true,
            defaultValue: refused?.values?.email ?? "",
          }}
          error={refused?.fields?.email}
        />
        <button type="submit" className="button">
          Send me a link
        </button>
      </Form>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
