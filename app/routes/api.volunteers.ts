import type { Route } from "./+types/api.volunteers";
import { submitVolunteer, volunteerInputFromForm } from "~/features/volunteers/volunteers.server";

// POST /api/volunteers: the volunteering form's sign-up, as JSON or form data.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  let input: Record<string, unknown>;
  try {
    const type = request.headers.get("Content-Type") ?? "";
    input = type.includes("application/json")
      ? ((await request.json()) as Record<string, unknown>)
      : volunteerInputFromForm(await request.formData());
    if (typeof input !== "object" || input === null) throw new Error("not an object");
  } catch {
    return Response.json({ status: "invalid", errors: {} }, { status: 400 });
  }
  const result = await submitVolunteer(input, {
    db: context.services.db,
    limiter: context.services.limits.volunteerSignUps,
    clientAddress: context.clientAddress,
    now: context.services.clock.now(),
  });
  const status = result.status === "ok" ? 201 : result.status === "limited" ? 429 : 400;
  return Response.json(result, { status });
}
