import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";
import { emailPattern } from "~/lib/validation";

const mailAttachmentSchema = z.object({
  filename: z.string().min(1),
  contentType: z.string().min(1),
  /** Base64. */
  content: z.string(),
  /** Set for images shown inside the HTML (src="cid:..."). */
  cid: z.string().optional(),
});
export type MailAttachment = z.infer<typeof mailAttachmentSchema>;

/**
 * Whom an e-mail is to: one address, and the person's name beside it. They are handed to nodemailer
 * apart, so the name is only ever shown, never read as addresses, whatever it says (a name of
 * "a@x.org, b@y.org" once put two strangers on a volunteer's welcome: decision 053).
 */
export const mailRecipientSchema = z.object({
  name: z.string().max(200).optional(),
  address: z.string().max(254).regex(emailPattern, "must be one e-mail address"),
});
export type MailRecipient = z.infer<typeof mailRecipientSchema>;

/**
 * An e-mail queued before recipients were kept apart named them as one text, "Name <address>": it
 * is still sent, when that text is exactly one address; a list or a group is refused, not sent.
 */
const queuedAsText = z.string().transform((text, context): MailRecipient => {
  const parsed = addressparser(text);
  const only = parsed.length === 1 ? parsed[0] : undefined;
  const one = only && "address" in only && !("group" in only && only.group) ? only : undefined;
  const address = one?.address ?? "";
  if (!emailPattern.test(address)) {
    context.addIssue({ code: "custom", message: "must be one e-mail address" });
    return z.NEVER;
  }
  return { address, ...(one?.name ? { name: one.name } : {}) };
});

/** How an e-mail's recipient is shown to staff and kept in the outbox's `recipient` column. */
export function recipientText({ name, address }: MailRecipient) {
  return name ? `${name} <${address}>` : address;
}

/** A whole e-mail, as stored in the outbox and handed to the mailer; checked again when read back. */
export const mailMessageSchema = z.object({
  to: z.union([mailRecipientSchema, queuedAsText], { error: "must be one e-mail address" }),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
  attachments: z.array(mailAttachmentSchema).optional(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** How an e-mail left: handed to a mail server, or only written to the outbox folder (no mail server is set). */
export type DeliveredBy = "smtp" | "folder";

export interface Mailer {
  /** Where mail goes, for logs: "smtp://host:port" or the outbox folder. */
  describe(): string;
  /**
   * How this mailer delivers, recorded on each e-mail it sends (`outbox.delivered_by`) so staff are
   * never told "Sent" of a file. A stand-in of the tests may leave it out: nothing is recorded.
   */
  readonly deliveredBy?: DeliveredBy;
  /**
   * `messageId`: the same for every attempt at one e-mail, so that if a crash makes the outbox send
   * it twice (the server took it, we did not hear), mail programs can see the second as the same one.
   */
  send(message: MailMessage, options?: { messageId?: string }): Promise<void>;
  /** Closes what it keeps open (the SMTP connection), when the site stops. */
  close?(): void;
}

/**
 * Who every e-mail is from, and where a reply goes: the charity's own address (PRODUCT.md), read
 * when the e-mail is sent, so a retried e-mail follows the `site` content as it is now.
 */
export interface Sender {
  /** MAIL_FROM: an address the mail server may send from, such as no-reply@... */
  from: string;
  replyTo: () => string | Promise<string>;
}

async function toNodemailer(sender: Sender, message: MailMessage, messageId?: string) {
  return {
    ...(messageId && { messageId }),
    from: sender.from,
    replyTo: await sender.replyTo(),
    to: { name: message.to.name ?? "", address: message.to.address },
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments?.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(a.content, "base64"),
      ...(a.cid && { cid: a.cid }),
    })),
  };
}

/**
 * Real SMTP (SMTP_URL), with short timeouts: a slow server is retried later by the outbox. One
 * connection is kept open and reused while there is mail to send (a pool of one): a new
 * connection for each e-mail cost about 100 ms, most of the time a message to 300 bookings took.
 * The options go in the one object with the URL: a second argument would be each message's defaults.
 */
export function smtpMailer(url: string, sender: Sender): Mailer {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 1,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Record<string, unknown>);
  const where = new URL(url);
  return {
    deliveredBy: "smtp",
    describe: () => `${where.protocol}//${where.hostname}:${where.port || 587}`,
    async send(message, options) {
      await transport.sendMail(await toNodemailer(sender, message, options?.messageId));
    },
    close: () => transport.close(),
  };
}

/** Without SMTP: each e-mail becomes an .eml file in DATA_DIR/outbox/, readable by any mail program. */
export function folderMailer(dir: string, sender: Sender): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  // The folder is made when the first e-mail is written, and again if it has gone since (or its
  // making failed): not once an e-mail, which cost a call into the file system each time.
  let made: Promise<unknown> | undefined;
  const makeFolder = () =>
    (made ??= fs.mkdir(dir, { recursive: true }).catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
  const write = async (file: string, bytes: Buffer) => {
    await makeFolder();
    try {
      await fs.writeFile(file, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      made = undefined;
      await makeFolder();
      await fs.writeFile(file, bytes);
    }
  };
  return {
    deliveredBy: "folder",
    describe: () => dir,
    async send(message, options) {
      const info = (await transport.sendMail(await toNodemailer(sender, message, options?.messageId))) as unknown as {
        message: Buffer;
      };
      // eslint-disable-next-line no-restricted-syntax -- only a file name, sorting the folder by arrival
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.to.address.replace(/[^\w.@-]/g, "_")}.eml`;
      const temporary = path.join(dir, `.${name}.tmp`);
      await write(temporary, info.message);
      await fs.rename(temporary, path.join(dir, name));
    },
  };
}
