import { z } from "zod";
import { validate, type Validation } from "~/lib/forms";
import { emailField, personNamePattern, requiredTextField } from "~/lib/validation";

/**
 * Input caps of the volunteering form (docs/specification.md, section 5); the browser stops typing
 * at these.
 */
export const volunteerLimits = { name: 80, email: 100, reason: 200 } as const;

export const volunteerMessages = {
  name: "Name must not be left blank.",
  email: "Invalid email.",
  reason: "Reason for signing up must not be left blank.",
} as const;

/**
 * A name with anything but the letters of a name (the site's rule, personNamePattern) is refused:
 * the welcome e-mail is addressed to it, so it must never be able to carry an address.
 */
export const volunteerNameCharacters = "Name may only contain letters, spaces, hyphens, apostrophes and full stops.";

export const volunteerSchema = z.object({
  name: requiredTextField(
    volunteerMessages.name,
    volunteerLimits.name,
    `Name must be at most ${volunteerLimits.name} characters.`,
  ).regex(personNamePattern, volunteerNameCharacters),
  email: emailField(
    volunteerMessages.email,
    volunteerLimits.email,
    `Email must be at most ${volunteerLimits.email} characters.`,
  ),
  reason: requiredTextField(
    volunteerMessages.reason,
    volunteerLimits.reason,
    `Reason must be at most ${volunteerLimits.reason} characters.`,
  ),
});

export type VolunteerSignUp = z.infer<typeof volunteerSchema>;
export type VolunteerField = keyof VolunteerSignUp;
export type VolunteerErrors = Partial<Record<VolunteerField, string>>;

export type VolunteerValidation = Validation<VolunteerSignUp, VolunteerField>;

/** Checks a sign-up with the same rules in the browser and on the server; one message per field. */
export function validateVolunteer(input: unknown): VolunteerValidation {
  return validate<typeof volunteerSchema, VolunteerField>(volunteerSchema, input);
}

/** What the site says back after a sign-up, in the browser and in the page without JavaScript. */
export const volunteerReplies = {
  thanksTitle: "Thank you",
  thanks: "Thank you for registering your interest in volunteering with us! We will be in touch soon.",
  failedTitle: "Something went wrong",
  failed: "Sorry, we could not send your sign-up just now. Please try again in a moment.",
  invalid: "Please correct the fields marked.",
  limited:
    "We have received several sign-ups from your connection in a short time. Please wait a few minutes and try again.",
} as const;

export type VolunteerSubmissionResult =
  { status: "ok" } | { status: "invalid"; errors: VolunteerErrors } | { status: "limited"; message: string };
