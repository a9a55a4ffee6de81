import type { MailMessage } from "~/infra/email/mailer.server";
import { escapeHtml } from "~/lib/html";
import { londonDate, londonTime } from "~/lib/london-time";

export interface InvitingCharity {
  name: string;
  /** The site's public address: the link starts with it. */
  website: string;
}

/** The e-mail a new member of staff gets: the one-time link to choose a password, and when it stops working. */
export function staffInvitationMail({
  email,
  link,
  expiresAt,
  charity,
}: {
  email: string;
  link: string;
  expiresAt: Date;
  charity: InvitingCharity;
}): MailMessage {
  const until = `${londonTime(expiresAt)} on ${londonDate(expiresAt)} (UK time)`;
  const text = [
    "Hello,",
    "",
    `You have been invited to join the staff of ${charity.name}'s website, to run its events, bookings and messages.`,
    "",
    "Open this link to choose your password and sign in:",
    link,
    "",
    `The link works once, until ${until}. If it has expired, ask a member of staff to invite you again.`,
    "",
    "If you were not expecting this, you can ignore this e-mail: nothing happens unless the link is opened.",
    "",
    charity.name,
  ].join("\n");
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">You are invited to join the staff</h1>
<p>Hello,</p>
<p>You have been invited to join the staff of ${escapeHtml(charity.name)}'s website, to run its events, bookings and messages.</p>
<p><a href="${escapeHtml(link)}" style="color:#143820;font-weight:bold">Choose your password and sign in</a></p>
<p>The link works once, until ${escapeHtml(until)}. If it has expired, ask a member of staff to invite you again.</p>
<p style="color:#4d4a44;font-size:13px">If you were not expecting this, you can ignore this e-mail: nothing happens unless the link is opened.</p>
</body></html>`;
  return { to: { address: email }, subject: `Join the staff of ${charity.name}'s website`, text, html };
}

/**
 * The e-mail with a link to choose a new password: asked for on the sign-in page by the member, or
 * sent by an Owner (`byOwner`). Says what to do if they did not ask, since anyone can ask.
 */
export function staffPasswordResetMail({
  email,
  link,
  expiresAt,
  charity,
  byOwner,
}: {
  email: string;
  link: string;
  expiresAt: Date;
  charity: InvitingCharity;
  byOwner?: string;
}): MailMessage {
  const until = `${londonTime(expiresAt)} on ${londonDate(expiresAt)} (UK time)`;
  const why = byOwner
    ? `${byOwner} has sent you a link to choose a new password for your staff account on ${charity.name}'s website.`
    : `Someone asked for a link to choose a new password for your staff account on ${charity.name}'s website.`;
  const ignore =
    "If you did not ask for this, you can ignore this e-mail: your password stays as it is unless the link is opened and a new one chosen.";
  const text = [
    "Hello,",
    "",
    why,
    "",
    "Open this link to choose a new password and sign in:",
    link,
    "",
    `The link works once, until ${until}. Choosing a new password signs you out on every other device.`,
    "",
    ignore,
    "",
    charity.name,
  ].join("\n");
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">Choose a new password</h1>
<p>Hello,</p>
<p>${escapeHtml(why)}</p>
<p><a href="${escapeHtml(link)}" style="color:#143820;font-weight:bold">Choose a new password and sign in</a></p>
<p>The link works once, until ${escapeHtml(until)}. Choosing a new password signs you out on every other device.</p>
<p style="color:#4d4a44;font-size:13px">${escapeHtml(ignore)}</p>
</body></html>`;
  return { to: { address: email }, subject: `Choose a new password for ${charity.name}'s website`, text, html };
}
