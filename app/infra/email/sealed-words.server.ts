import crypto from "node:crypto";
import { escapeHtml } from "~/lib/html";
import type { MailMessage } from "./mailer.server";

// Words an e-mail carries that nobody may read in the outbox: the one-time token of a staff
// invitation, which signs in whoever opens the link (docs/decisions/054-sealed-words-in-e-mails.md).
// The stored e-mail names each one as `{{name}}`; its value is kept beside it, sealed (AES-256-GCM,
// under a key drawn from the session secret), filled in only as the e-mail is sent, and forgotten
// once it has gone. Staff's preview shows the mark, never the value.

const placeholder = /\{\{([a-z][a-z-]*)\}\}/g;

/** What staff see where a sealed word stands. */
export const hiddenWord = "••••••••";

/** Seals and opens an e-mail's secret words with a key drawn from the site's session secret. */
export class MailSeal {
  private readonly key: Buffer;

  constructor(sessionSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync("sha256", sessionSecret, "kilele-outbox", "sealed words of an e-mail", 32));
  }

  seal(words: Record<string, string>): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(words), "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  open(sealed: string): Record<string, string> {
    try {
      const bytes = Buffer.from(sealed, "base64url");
      const decipher = crypto.createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      return JSON.parse(text) as Record<string, string>;
    } catch {
      throw new Error(
        "Its sealed words cannot be opened: the session secret has changed since it was queued. Send it again.",
      );
    }
  }
}

/** The e-mail as it is sent: each `{{name}}` replaced by its word (escaped in the HTML). */
export function fillSealedWords(message: MailMessage, words: Record<string, string>): MailMessage {
  const word = (name: string) => {
    const value = words[name];
    if (value === undefined) throw new Error(`Its sealed word "${name}" is missing.`);
    return value;
  };
  return {
    ...message,
    text: message.text.replace(placeholder, (_, name: string) => word(name)),
    html: message.html.replace(placeholder, (_, name: string) => escapeHtml(word(name))),
  };
}

/** The e-mail as staff may read it: every sealed word shown as `hiddenWord`. */
export function hideSealedWords(text: string): string {
  return text.replace(placeholder, hiddenWord);
}
