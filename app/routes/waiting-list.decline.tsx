import { Form } from "react-router";
import type { Route } from "./+types/waiting-list.decline";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { declineOffer, offerForPage } from "~/features/booking/waiting-list.server";
import { waitingListMessages } from "~/features/booking/waiting-list";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDate, londonTime } from "~/lib/london-time";
import { pageMeta } from "~/lib/page-meta";

// /waiting-list/decline?offer=<token>: the offer e-mail's "decline" link. Opening it changes
// nothing (mail programs open links to scan them); the button declines, and the tickets pass to
// the next person on the list, never back (docs/decisions/086-a-waiting-list.md).
export const loader = pageWork("The waiting list's decline page", async ({ request, context }: Route.LoaderArgs) => {
  const token = (new URL(request.url).searchParams.get("offer") ?? "").slice(0, 100);
  const offer = await offerForPage(context.services.db, token, context.services.clock.now());
  return { token: offer ? token : "", offer };
});

export const action = pageWork("Declining a waiting-list offer", async ({ request, context }: Route.ActionArgs) =>
  answerForm(request, async (form) => {
    await declineOffer(context.services, formText(form, "offer", 100));
    return { message: "You have declined the offer. The tickets go to the next person on the waiting list." };
  }),
);

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Decline a waiting-list offer", "Decline a waiting-list offer.", {
    site: matches[0].loaderData?.share,
    path: "/waiting-list/decline",
  }),
  { name: "robots", content: "noindex, nofollow" },
];

export default function DeclineOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, token } = loaderData;
  return (
    <main id="main" className="page narrow">
      <h1>Decline a waiting-list offer</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok}>{actionData.message}</FormNotice>
      ) : offer ? (
        <>
          <p>
            You are offered {offer.tickets} {offer.typeName} {offer.tickets === 1 ? "ticket" : "tickets"}, held for you
            until {londonDate(offer.expiresAt)} at {londonTime(offer.expiresAt)}.
          </p>
          <Form method="post" className="form">
            <input type="hidden" name="offer" value={token} />
            <button type="submit" className="button">
              Decline this offer
            </button>
          </Form>
        </>
      ) : (
        <p>{waitingListMessages.offerGone}</p>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
