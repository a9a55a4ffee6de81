import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { z } from "zod";

const mailAttachmentSchema = z.object({
  filename: z.string().min(1),
  contentType: z.string().min(1),
  /** Base64. */
  content: z.string(),
  /** Set for images shown inside the HTML (src="cid:..."). */
  cid: z.string().optional(),
});
export type MailAttachment = z.infer<typeof mailAttachmentSchema>;

/** A whole e-mail, as stored in the outbox and handed to the mailer; checked again when read back. */
export const mailMessageSchema = z.object({
  to: z.string().min(3),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
  attachments: z.array(mailAttachmentSchema).optional(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

export interface Mailer {
  /** Where mail goes, for logs: "smtp://host:port" or the outbox folder. */
  describe(): string;
  /**
   * `messageId`: the same for every attempt at one e-mail, so that if a crash makes the outbox send
   * it twice (the server took it, we did not hear), mail programs can see the second as the same one.
   */
  send(message: MailMessage, options?: { messageId?: string }): Promise<void>;
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
    to: message.to,
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

/** Real SMTP (SMTP_URL), with short timeouts: a slow server is retried later by the outbox. */
export function smtpMailer(url: string, sender: Sender): Mailer {
  const transport = nodemailer.createTransport(url, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Record<string, unknown>);
  const where = new URL(url);
  return {
    describe: () => `${where.protocol}//${where.hostname}:${where.port || 587}`,
    async send(message, options) {
      await transport.sendMail(await toNodemailer(sender, message, options?.messageId));
    },
  };
}

/** Without SMTP: each e-mail becomes an .eml file in DATA_DIR/outbox/, readable by any mail program. */
export function folderMailer(dir: string, sender: Sender): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    describe: () => dir,
    async send(message, options) {
      const info = (await transport.sendMail(await toNodemailer(sender, message, options?.messageId))) as unknown as {
        message: Buffer;
      };
      await fs.mkdir(dir, { recursive: true });
      // eslint-disable-next-line no-restricted-syntax -- only a file name, sorting the folder by arrival
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.to.replace(/[^\w.@-]/g, "_")}.eml`;
      const temporary = path.join(dir, `.${name}.tmp`);
      await fs.writeFile(temporary, info.message);
      await fs.rename(temporary, path.join(dir, name));
    },
  };
}
