import type { ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/volunteering";
import { ErrorPage } from "~/components/layout/error-page";
import { answerForm } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { VolunteerForm } from "~/features/volunteers/components/volunteer-form";
import { volunteerReplies } from "~/features/volunteers/schema";
import { signUpVolunteer, volunteerInputFromForm } from "~/features/volunteers/volunteers.server";
import type { FormResult } from "~/lib/forms";
import { pageMeta } from "~/lib/page-meta";

export const loader = pageWork("The volunteering page", async ({ context }: Route.LoaderArgs) => {
  const { volunteering } = await context.services.content();
  return { volunteering };
});

// The volunteering form posts here, as a plain form without JavaScript or through a fetcher with it.
export const action = pageWork(
  "The volunteering page (sending the form)",
  async ({ request, context }: Route.ActionArgs) =>
    answerForm(request, async (form) => {
      await signUpVolunteer(context.services, volunteerInputFromForm(form), context.clientAddress);
      return { message: volunteerReplies.thanks };
    }),
);

// With JavaScript, a sign-up that never reaches the server is answered in the page, keeping what was typed.
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return { ok: false, intent: "", message: volunteerReplies.failed, code: "unexpected" } satisfies FormResult;
  }
}

// A sign-up changes nothing the page loaded, so it is not loaded again (nor, offline, lost to an error page).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/volunteering" ? false : defaultShouldRevalidate;

// Rendered once per change and kept (server/page-cache.ts): this page shows only published content and settings: kept until they change.
export const handle = { publicCache: "content" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta("Volunteering", data?.volunteering.description, {
    site: matches[0].loaderData?.share,
    path: "/volunteering",
    image: data?.volunteering.image,
  });

export default function Volunteering({ loaderData: { volunteering }, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader title={volunteering.title} image={volunteering.image} />
      <TwoColumns col1Text={volunteering.col1Text} col2Text={volunteering.col2Text} />
      <section className="section narrow" aria-labelledby="join-us">
        <h2 id="join-us">{volunteering.formTitle}</h2>
        <p>{volunteering.formIntro}</p>
        <VolunteerForm key={actionData ? "answered" : "new"} result={actionData} />
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
