import type { Route } from "./+types/api.volunteers";
import { signUpVolunteer, volunteerInputFromForm } from "~/features/volunteers/volunteers.server";
import { allowMethods, apiRoute, isFormBody, onlyAllows, readFormBody, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/volunteers: a volunteering sign-up, as JSON or form data (specification call 3, for
// other tools; the site's own form posts to its page's action).
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Volunteer sign-up", async () => {
    allowMethods(request, "POST");
    const json = (request.headers.get("Content-Type") ?? "").includes("application/json");
    if (!json && !isFormBody(request)) {
      throw new AppError("unsupported-media-type", "Send the sign-up as JSON or as a form.");
    }
    const input = json ? await readJsonBody(request) : volunteerInputFromForm(await readFormBody(request));
    await signUpVolunteer(context.services, input, context.clientAddress);
    return Response.json({ status: "ok" }, { status: 201 });
  });
