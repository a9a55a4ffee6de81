import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on loopback that keeps what it receives, parsed. */
export class TestSmtpServer {
  readonly received: ParsedMail[] = [];
  /** Each message's envelope: the addresses the sender gave RCPT TO, whatever its headers say. */
  readonly envelopes: string[][] = [];
  /** Connections that broke off (a sender killed mid-session), kept for a test that wants them. */
  readonly connectionErrors: Error[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  /** Listens on loopback unless given `host` (0.0.0.0 for containers that reach this machine). */
  async start(port = 0, host = "127.0.0.1") {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      // Stopped, it ends the sessions still open at once (421), as a server that goes down does.
      // smtp-server's own default waits 30 s for them to end, and the site's kept connection
      // (app/infra/email/mailer.server.ts) only ends when its 20-second idle limit is reached.
      closeTimeout: 50,
      onData: (stream, session, callback) => {
        this.envelopes.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
        simpleParser(stream)
          .then(async (mail) => {
            this.received.push(mail);
            // A held answer: the message is here, but the sender has not heard so (a crash now makes it send again).
            await this.answersHeld;
            callback();
          })
          .catch(callback);
      },
    });
    // A sender killed in the middle of a session (the crash tests do it on purpose) resets its
    // connection; the server re-emits that as an "error", which with no listener would end the test.
    this.server.on("error", (error) => this.connectionErrors.push(error));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, host, () => {
        this.server!.off("error", reject);
        resolve();
      });
    });
    this.port = (
      (this.server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo
    ).port;
    return this;
  }

  /** What was sent to `address` (the office's own e-mails go to the charity's address as well). */
  sentTo(address: string): ParsedMail[] {
    return this.received.filter((mail) =>
      [mail.to ?? []].flat().some((to) => to.value.some((v) => v.address?.toLowerCase() === address.toLowerCase())),
    );
  }

  private answersHeld: Promise<void> | undefined;

  /** Keeps every message received but unanswered until the returned function is called: a slow server. */
  holdAnswers(): () => void {
    let release = () => {};
    this.answersHeld = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.answersHeld = undefined;
      release();
    };
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
