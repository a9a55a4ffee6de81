import { z } from "zod";

/** Input caps of the volunteering form (spec section 5); the browser stops typing at these. */
export const volunteerLimits = { name: 80, email: 100, reason: 200 } as const;

export const volunteerMessages = {
  name: "Name must not be left blank.",
  email: "Invalid email.",
  reason: "Reason for signing up must not be left blank.",
} as const;

/** A standard e-mail shape: something, @, a domain with a dot, no spaces. */
export const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const volunteerSchema = z.object({
  name: z
    .string(volunteerMessages.name)
    .trim()
    .min(1, volunteerMessages.name)
    .max(volunteerLimits.name, `Name must be at most ${volunteerLimits.name} characters.`),
  email: z
    .string(volunteerMessages.email)
    .trim()
    .max(volunteerLimits.email, `Email must be at most ${volunteerLimits.email} characters.`)
    .regex(emailPattern, volunteerMessages.email),
  reason: z
    .string(volunteerMessages.reason)
    .trim()
    .min(1, volunteerMessages.reason)
    .max(volunteerLimits.reason, `Reason must be at most ${volunteerLimits.reason} characters.`),
});

export type VolunteerSignUp = z.infer<typeof volunteerSchema>;
export type VolunteerField = keyof VolunteerSignUp;
export type VolunteerErrors = Partial<Record<VolunteerField, string>>;

export type VolunteerValidation = { ok: true; data: VolunteerSignUp } | { ok: false; errors: VolunteerErrors };

/** Checks a sign-up with the same rules in the browser and on the server; one message per field. */
export function validateVolunteer(input: unknown): VolunteerValidation {
  const result = volunteerSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const errors: VolunteerErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as VolunteerField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** What the site says back after a sign-up, in the browser and in the page without JavaScript. */
export const volunteerReplies = {
  thanksTitle: "Thank you",
  thanks: "Thank you for registering your interest in volunteering with us! We will be in touch soon.",
  failedTitle: "Something went wrong",
  failed: "Sorry, we could not send your sign-up just now. Please try again in a moment.",
  limited:
    "We have received several sign-ups from your connection in a short time. Please wait a few minutes and try again.",
} as const;

export type VolunteerSubmissionResult =
  { status: "ok" } | { status: "invalid"; errors: VolunteerErrors } | { status: "limited"; message: string };
