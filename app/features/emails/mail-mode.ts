import type { DeliveredBy } from "~/infra/email/mailer.server";
import { londonStamp } from "~/lib/london-time";

// How staff are told what became of an e-mail, in words that are true for the way the site sends
// them (decision 074): "Sent" only when a mail server took it; with no mail server set, the e-mail
// was written to the outbox folder and nobody receives it.

/** How the site sends e-mail now: to a mail server, or only into the outbox folder. */
export type MailMode = DeliveredBy;

/** The site's mail mode, from its outbox (a stand-in mailer of the tests counts as a mail server). */
export function mailMode({ outbox }: { outbox: { deliveredBy?: DeliveredBy | undefined } }): MailMode {
  return outbox.deliveredBy ?? "smtp";
}

/** The words for an e-mail written to the folder, wherever staff read about one. */
export const writtenToFolder = "Written to the outbox folder (no mail server is set)";

const when = (iso: string) => londonStamp(iso);

/**
 * What became of an e-mail that left the outbox: "Sent at …" only when a mail server took it;
 * "Written to the outbox folder (no mail server is set) at …" for a file; for an e-mail that left
 * before the site kept how, neither.
 */
export function deliveredText({ sentAt, deliveredBy }: { sentAt: string; deliveredBy: DeliveredBy | null }): string {
  if (deliveredBy === "smtp") return `Sent at ${when(sentAt)}`;
  if (deliveredBy === "folder") return `${writtenToFolder} at ${when(sentAt)}`;
  return `Left the outbox at ${when(sentAt)}`;
}

/**
 * A confirmation that an e-mail went: `what` ("An invitation") "was sent to" `to` with a mail
 * server; without one, that it was only written to the outbox folder and nobody receives it.
 */
export function emailWentTo(mode: MailMode, what: string, to: string): string {
  if (mode === "smtp") return `${what} was sent to ${to}.`;
  return `${what} for ${to} was written to the outbox folder, not sent: no mail server is set, so nobody receives it.`;
}

/** Staff's Retry now, once the e-mail has left. */
export function retriedText(mode: MailMode): string {
  return mode === "smtp"
    ? "The e-mail is sent."
    : `The e-mail is written to the outbox folder (no mail server is set).`;
}

/** The name of the filter for e-mails that have left the outbox. */
export function leftLabel(mode: MailMode): string {
  return mode === "smtp" ? "Sent" : "Written to the folder";
}
