import type { MailMessage } from "~/infra/email/mailer.server";
import { escapeHtml } from "~/lib/html";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

// The e-mails the charity's office gets. They go to the charity itself, so they name the buyer,
// the donor and the volunteer; they never go to a visitor.

export interface OfficeCharity {
  name: string;
  email: string;
  /** The site's public address, for links to the staff pages. */
  website: string;
}

export interface OfficeBooking {
  ref: string;
  eventName: string;
  eventDate: Date;
  buyer: string;
  email: string;
  quantity: number;
  /** "2 × Adult, 1 × Child"; null for tickets of the plain type only (an event sold at one price). */
  types?: string | null;
  amountPence: number;
  paidAt: Date | null;
}

export interface OfficeDonation {
  id: string;
  donor: string;
  email: string;
  amountPence: number;
  paidAt: Date | null;
}

export interface OfficeSignUp {
  id: string;
  name: string;
  email: string;
  reason: string;
  createdAt: Date;
}

const when = (at: Date | null) => (at ? `${londonDate(at)} ${londonTime(at)}` : "");
const tickets = (quantity: number) => `${quantity} ${quantity === 1 ? "ticket" : "tickets"}`;

function bookingLine(b: OfficeBooking) {
  return `${b.buyer} <${b.email}> booked ${tickets(b.quantity)}${b.types ? ` (${b.types})` : ""} for ${b.eventName} (${londonDate(b.eventDate)}): ${formatPounds(b.amountPence)}, paid ${when(b.paidAt)}, reference ${b.ref}`;
}
function donationLine(d: OfficeDonation) {
  return `${d.donor} <${d.email}> gave ${formatPounds(d.amountPence)}, paid ${when(d.paidAt)}`;
}
function signUpLine(v: OfficeSignUp) {
  return `${v.name} <${v.email}> signed up to volunteer ${when(v.createdAt)}: “${v.reason}”`;
}

function page(title: string, paragraphs: string[], charity: OfficeCharity) {
  return `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.join("\n")}
<p style="color:#4d4a44;font-size:13px">Sent by ${escapeHtml(charity.name)}'s website to the office address chosen on its Settings page (${escapeHtml(charity.website)}/admin/settings).</p>
</body></html>`;
}

function message(to: string, subject: string, lines: string[], html: string): MailMessage {
  return { to: { address: to }, subject, text: lines.join("\n"), html };
}

const footer = (charity: OfficeCharity) => [
  "",
  `Sent by ${charity.name}'s website to the office address chosen at ${charity.website}/admin/settings.`,
];

export function officeBookingMail(to: string, b: OfficeBooking, charity: OfficeCharity): MailMessage {
  const subject = `New booking: ${tickets(b.quantity)} for ${b.eventName}`;
  return message(
    to,
    subject,
    [bookingLine(b), ...footer(charity)],
    page(subject, [`<p>${escapeHtml(bookingLine(b))}</p>`], charity),
  );
}

export function officeDonationMail(to: string, d: OfficeDonation, charity: OfficeCharity): MailMessage {
  const subject = `New donation: ${formatPounds(d.amountPence)} from ${d.donor}`;
  return message(
    to,
    subject,
    [donationLine(d), ...footer(charity)],
    page(subject, [`<p>${escapeHtml(donationLine(d))}</p>`], charity),
  );
}

export function officeVolunteerMail(to: string, v: OfficeSignUp, charity: OfficeCharity): MailMessage {
  const subject = `New volunteer: ${v.name}`;
  return message(
    to,
    subject,
    [signUpLine(v), ...footer(charity)],
    page(subject, [`<p>${escapeHtml(signUpLine(v))}</p>`], charity),
  );
}

/** The day's summary: every booking, donation and sign-up of one London day, with totals. */
export function officeSummaryMail(
  to: string,
  day: string,
  { booked, donated, signedUp }: { booked: OfficeBooking[]; donated: OfficeDonation[]; signedUp: OfficeSignUp[] },
  charity: OfficeCharity,
): MailMessage {
  const [y, m, d] = day.split("-");
  const subject = `What came in on ${d}/${m}/${y}`;
  const sections: [string, string[]][] = [
    [
      `Bookings: ${booked.length}, ${formatPounds(booked.reduce((sum, b) => sum + b.amountPence, 0))}`,
      booked.map(bookingLine),
    ],
    [
      `Donations: ${donated.length}, ${formatPounds(donated.reduce((sum, x) => sum + x.amountPence, 0))}`,
      donated.map(donationLine),
    ],
    [`Volunteer sign-ups: ${signedUp.length}`, signedUp.map(signUpLine)],
  ];
  const text = sections.flatMap(([heading, lines]) => [heading, ...lines.map((line) => `- ${line}`), ""]);
  const html = sections.map(
    ([heading, lines]) =>
      `<h2 style="font-size:16px">${escapeHtml(heading)}</h2>${
        lines.length ? `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : ""
      }`,
  );
  return message(to, subject, [subject, "", ...text, ...footer(charity)], page(subject, html, charity));
}
