import { composeLetter } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";

/** The e-mail a volunteer gets on signing up: we have it, what they wrote, and what happens next. */
export function volunteerConfirmation(
  volunteer: { name: string; email: string; reason: string },
  charity: Charity,
): Promise<MailMessage> {
  return composeLetter({
    to: { name: volunteer.name, address: volunteer.email },
    subject: `Thank you for offering to volunteer with ${charity.name}`,
    title: "Thank you for offering to help",
    greeting: `Dear ${volunteer.name},`,
    charity,
    blocks: [
      {
        paragraph: `Thank you for offering to volunteer with ${charity.name}. We have your sign-up, and our volunteer coordinator will be in touch within a week to talk about what you would like to do.`,
      },
      { paragraph: "You told us:" },
      { quote: volunteer.reason },
      {
        paragraph:
          "If you did not sign up, or have changed your mind, reply to this e-mail and we will delete your details.",
      },
    ],
  });
}
