import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
import { escapeHtml } from "~/lib/html";

/** The e-mail a volunteer gets on signing up: we have it, what they wrote, and what happens next. */
export function volunteerConfirmation(
  volunteer: { name: string; email: string; reason: string },
  charity: Charity,
): MailMessage {
  const lines = [
    `Dear ${volunteer.name},`,
    "",
    `Thank you for offering to volunteer with ${charity.name}. We have your sign-up, and our volunteer coordinator will be in touch within a week to talk about what you would like to do.`,
    "",
    "You told us:",
    `“${volunteer.reason}”`,
    "",
    `If you did not sign up, or have changed your mind, reply to this e-mail and we will delete your details.`,
    "",
    `${charity.name}, registered charity number ${charity.registrationNumber}`,
    `Questions? Reply to ${charity.email}.`,
  ];
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">Thank you for offering to help</h1>
<p>Dear ${escapeHtml(volunteer.name)},</p>
<p>Thank you for offering to volunteer with ${escapeHtml(charity.name)}. We have your sign-up, and our volunteer coordinator will be in touch within a week to talk about what you would like to do.</p>
<p>You told us:</p>
<blockquote style="margin:0 0 1em 0;padding-left:12px;border-left:4px solid #f2b33d">${escapeHtml(volunteer.reason)}</blockquote>
<p>If you did not sign up, or have changed your mind, reply to this e-mail and we will delete your details.</p>
<p style="color:#4d4a44;font-size:13px">${escapeHtml(charity.name)}, registered charity number ${escapeHtml(charity.registrationNumber)}.<br>Questions? Reply to <a href="mailto:${escapeHtml(charity.email)}">${escapeHtml(charity.email)}</a>.</p>
</body></html>`;
  return {
    to: `${volunteer.name} <${volunteer.email}>`,
    subject: `Thank you for offering to volunteer with ${charity.name}`,
    text: lines.join("\n"),
    html,
  };
}
