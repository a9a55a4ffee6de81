import { data } from "react-router";
import type { Route } from "./+types/volunteering";
import { PageHeader, TwoColumns } from "~/features/content/components/page-header";
import { VolunteerForm } from "~/features/volunteers/components/volunteer-form";
import { submitVolunteer, volunteerInputFromForm } from "~/features/volunteers/volunteers.server";
import { pageMeta } from "~/lib/page-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const { volunteering } = await context.services.content();
  return { volunteering };
}

// The form posts here when the browser has no JavaScript; with it, the form uses /api/volunteers.
export async function action({ request, context }: Route.ActionArgs) {
  const input = volunteerInputFromForm(await request.formData());
  const result = await submitVolunteer(input, {
    db: context.services.db,
    limiter: context.services.limits.volunteerSignUps,
    clientAddress: context.clientAddress,
    now: context.services.clock.now(),
  });
  const status = result.status === "ok" ? 200 : result.status === "limited" ? 429 : 400;
  const submitted = {
    name: String(input.name ?? ""),
    email: String(input.email ?? ""),
    reason: String(input.reason ?? ""),
  };
  return data({ result, submitted }, { status });
}

export const meta: Route.MetaFunction = ({ data }) => pageMeta("Volunteering", data?.volunteering.description);

export default function Volunteering({ loaderData: { volunteering }, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <PageHeader title={volunteering.title} image={volunteering.image} />
      <TwoColumns col1Text={volunteering.col1Text} col2Text={volunteering.col2Text} />
      <section className="section narrow" aria-labelledby="join-us">
        <h2 id="join-us">Join us in 2025</h2>
        <p>{volunteering.formIntro}</p>
        <VolunteerForm
          key={actionData ? "answered" : "new"}
          result={actionData?.result}
          submitted={actionData?.submitted}
        />
      </section>
    </main>
  );
}
