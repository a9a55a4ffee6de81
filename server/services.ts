import type { Config } from "~/infra/config.server";
import { openDatabase, type Database, type DatabaseHandle } from "~/infra/db/database.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import { paymentStartsPerAddress } from "~/infra/payments/card-testing.server";
import type { SiteContent } from "~/features/content/content.server";
import { ContentStore } from "~/features/content/store.server";
import { AvailabilityFeed } from "~/features/events/availability-feed.server";
import { runBookingRefunds } from "~/features/booking/cancellation.server";
import type { RefundDeps } from "~/features/booking/refunds.server";
import { EarlyRefusals } from "~/features/booking/checkout.server";
import { settleExpiredHolds } from "~/features/booking/settlement.server";
import { seedSampleEvents } from "~/features/events/sample-events.server";
import { bookingTotalPence } from "~/features/booking/pricing";
import { sweepOfficeMail } from "~/features/office/office.server";
import { ensureFirstStaffUser } from "~/features/staff/staff.server";
import { staffSignInLimits, type StaffSignInLimits } from "~/features/staff/sign-in.server";
import { storedSecret } from "~/infra/db/site-secrets.server";
import { finishPendingDonationRefunds } from "~/features/donations/refunds.server";
import path from "node:path";
import { folderMailer, smtpMailer } from "~/infra/email/mailer.server";
import { OutboxWorker } from "~/infra/email/outbox.server";
import { MailSeal } from "~/infra/email/sealed-words.server";
import { BackgroundJob } from "~/infra/jobs/background-job.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { charityOf, type Payment, type PaymentDeps, type PaymentProvider } from "~/infra/payments/provider.server";
import { stripeProvider } from "~/infra/payments/stripe.server";
import { systemClock, type Clock } from "~/lib/clock";
import { paymentFailed, paymentWebhook, settlePayment } from "./payments";

/** Everything a request needs from the running site, handed to loaders and actions as context. */
export interface Services {
  config: Config;
  db: Database;
  /** Hears what any process sharing the database announces (pg_notify), as the live feed and the page cache do. */
  listen: DatabaseHandle["listen"];
  /** The site's one clock (docs/decisions/009-one-clock.md). */
  clock: Clock;
  /** The pictures pages may name: content/images sources and uploads in the database. */
  pictures: PictureLibrary;
  /** The published content every page shows (`contentStore.published()`). */
  content(): Promise<SiteContent>;
  /**
   * The pages' content in the database: drafts, published versions, history, preview
   * (docs/decisions/031-content-in-the-database.md).
   */
  contentStore: ContentStore;
  /** Live ticket counts for the events pages. */
  availability: AvailabilityFeed;
  /** Checkout starts that could hold nothing, answered from the last reading while it holds (decision 042). */
  earlyRefusals: EarlyRefusals;
  /** Stripe when its keys are set, else the offline test card provider. */
  payments: PaymentProvider;
  /** Delivers queued e-mails (receipts) with retries. */
  outbox: OutboxWorker;
  /** Queues the charity office's e-mails (each arrival, or a daily summary) by the Settings page. */
  office: BackgroundJob;
  /** What bookings and donations need: database, provider, and the charity's details for receipts. */
  paymentDeps(): Promise<PaymentDeps>;
  /**
   * Refunds waiting for the provider (bookings and donations) and cancelled events' bookings, worked
   * through in the background; `kick()` after a cancellation.
   */
  refunds: BackgroundJob;
  /** What refunding needs: paymentDeps, and the outbox to send the buyer's e-mail at once. */
  refundDeps(): Promise<RefundDeps>;
  /** Settles the booking or donation a succeeded payment paid for (server/payments.ts). */
  settlePayment(paymentId: string, known?: Payment): Promise<unknown>;
  /** A card was declined: gives back the booking's seats once the provider confirms nothing was taken (server/payments.ts). */
  paymentFailed(paymentId: string): Promise<unknown>;
  /** POST /api/payments/webhook. */
  paymentWebhook(request: Request): Promise<Response>;
  /**
   * SESSION_SECRET, or the secret the site made and keeps in its database: signs known-device
   * cookies (decision 025).
   */
  sessionSecret: string;
  /** Rate limits, counted in the database so every process shares them (decision 025). */
  limits: {
    volunteerSignUps: RateLimiter;
    /** Failed staff sign-ins, per address, per address and account, and per account. */
    staffSignIns: StaffSignInLimits;
    /** Payment starts (bookings and donations), per address's keyed hash (decision 026). */
    paymentStarts: RateLimiter;
  };
  /** Ends long-lived connections (the live feed) so the HTTP server can finish. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export async function createServices(config: Config, clock: Clock = systemClock): Promise<Services> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await ensureFirstStaffUser(database.db, config.firstStaff, clock.now());
    const pictures = new PictureLibrary(path.join(config.contentDir, "images"));
    // Before anything that reads the content: a name with neither a stored version nor a valid file
    // stops the start-up, naming the file and the field.
    const contentStore = new ContentStore(database, {
      clock,
      contentDir: config.contentDir,
      pictures,
      watchFiles: !config.production,
    });
    await contentStore.start();
    const currentContent = () => contentStore.published();
    const sessionSecret = config.sessionSecret ?? (await storedSecret(database.db, "session", clock.now()));
    if (config.sampleEvents) await seedSampleEvents(database.db, clock.now(), bookingTotalPence);
    const availability = new AvailabilityFeed(database, clock);
    await availability.start();
    const payments = config.stripe ? stripeProvider(config.stripe) : offlineProvider(database.db, clock);
    // Every e-mail's Reply-To is the charity's address, as the `site` content has it when it is sent.
    const sender = { from: config.mailFrom, replyTo: async () => (await currentContent()).site.email };
    const mailer = config.smtpUrl
      ? smtpMailer(config.smtpUrl, sender)
      : folderMailer(path.join(config.dataDir, "outbox"), sender);
    const outbox = new OutboxWorker(database.db, mailer, clock, { seal: new MailSeal(sessionSecret) });
    if (!config.databaseUrl) await outbox.resumeAlone();
    outbox.start();
    async function paymentDeps(): Promise<PaymentDeps> {
      const { site } = await currentContent();
      return { db: database.db, payments, clock, charity: charityOf(site, config.publicUrl) };
    }
    async function refundDeps(): Promise<RefundDeps> {
      return { ...(await paymentDeps()), deliver: (kind, about) => outbox.deliver(kind, about) };
    }
    // Next to the outbox, started now: refunds a stop left pending (sent again with the same
    // idempotency key) and cancelled events' bookings carry on after a restart.
    const refunds = new BackgroundJob(
      "Refunds",
      async (shouldStop) => {
        const deps = await refundDeps();
        await runBookingRefunds(deps, { pauseMs: config.refundPauseMs, shouldStop });
        await finishPendingDonationRefunds({ ...deps, outbox });
      },
      30_000,
    );
    void refunds.start();
    // Holds whose time is over while their payment may be on its way: settled, or freed when unpaid (decision 030).
    const expiredHolds = new BackgroundJob(
      "The expired holds' sweep",
      async (shouldStop) => {
        await settleExpiredHolds(await paymentDeps(), shouldStop);
      },
      5_000,
    );
    void expiredHolds.start();
    const office = new BackgroundJob(
      "The office e-mails' sweep",
      async () => {
        const queued = await sweepOfficeMail(database.db, { now: clock.now(), charity: (await paymentDeps()).charity });
        if (queued > 0) void outbox.deliverDue();
      },
      5_000,
    );
    await office.start();
    return {
      config,
      db: database.db,
      listen: (channel, onNotify) => database.listen(channel, onNotify),
      clock,
      pictures,
      content: currentContent,
      contentStore,
      availability,
      earlyRefusals: new EarlyRefusals(() => availability.changes),
      payments,
      outbox,
      office,
      paymentDeps,
      refunds,
      refundDeps,
      settlePayment: async (paymentId, known) => settlePayment(await paymentDeps(), paymentId, known),
      paymentFailed: async (paymentId) => paymentFailed(await paymentDeps(), paymentId),
      paymentWebhook: async (request) => paymentWebhook(await paymentDeps(), request),
      sessionSecret,
      limits: {
        volunteerSignUps: new RateLimiter(database.db, { name: "volunteer-sign-ups", limit: 5, windowMs: 15 * 60_000 }),
        staffSignIns: staffSignInLimits(database.db),
        paymentStarts: new RateLimiter(database.db, { name: "payment-starts", ...paymentStartsPerAddress }),
      },
      drain: () => availability.close(),
      async close() {
        await contentStore.stop();
        await refunds.stop();
        await expiredHolds.stop();
        await office.stop();
        await outbox.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
