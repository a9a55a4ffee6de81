import type { Config } from "~/infra/config.server";
import { openDatabase, type Database, type DatabaseHandle } from "~/infra/db/database.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import { paymentStartsPerAddress } from "~/infra/payments/card-testing.server";
import type { SiteContent } from "~/features/content/content.server";
import { ContentStore } from "~/features/content/store.server";
import { AvailabilityFeed } from "~/features/events/availability-feed.server";
import { runBookingRefunds } from "~/features/booking/cancellation.server";
import { EarlyRefusals } from "~/features/booking/checkout.server";
import { settleExpiredHolds } from "~/features/booking/settlement.server";
import { sweepWaitingLists } from "~/features/booking/waiting-list.server";
import { queueDueReminders } from "~/features/booking/reminders.server";
import { seedSampleEvents } from "~/features/events/sample-events.server";
import { bookingTotalPence } from "~/features/booking/pricing";
import { sweepOfficeMail } from "~/features/office/office.server";
import { takeDueGiftPayments } from "~/features/donations/regular-gifts.server";
import { reconcileOncePerDay } from "~/features/donations/reconciliation.server";
import { ensureFirstStaffUser } from "~/features/staff/staff.server";
import { passwordResetLimits, type PasswordResetLimits } from "~/features/staff/password-reset.server";
import { staffSignInLimits, type StaffSignInLimits } from "~/features/staff/sign-in.server";
import { storedSecret } from "~/infra/db/site-secrets.server";
import { finishPendingDonationRefunds } from "~/features/donations/refunds.server";
import path from "node:path";
import { folderMailer, smtpMailer } from "~/infra/email/mailer.server";
import { OutboxWorker } from "~/infra/email/outbox.server";
import { MailSeal } from "~/infra/email/sealed-words.server";
import { BackgroundJob } from "~/infra/jobs/background-job.server";
import { backupBeforeMigrating, runDailyBackup } from "~/infra/db/automatic-backups.server";
import { onUnexpectedError } from "~/infra/log.server";
import { raiseAlerts, recordError } from "~/infra/signals.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { charityOf, type Charity, type PaymentProvider } from "~/infra/payments/provider.server";
import { systemClock, type Clock } from "~/lib/clock";
import { Readiness } from "./readiness";

/**
 * The running site's parts, built once (createServices): the database, the clock, the providers,
 * the outbox, the content, the limits and the background work.
 */
export interface SiteServices {
  config: Config;
  db: Database;
  /** Which database it is: the embedded PGlite or a PostgreSQL server. */
  engine: DatabaseHandle["engine"];
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
  /**
   * Refunds waiting for the provider (bookings and donations) and cancelled events' bookings, worked
   * through in the background; `kick()` after a cancellation.
   */
  refunds: BackgroundJob;
  /** Holds whose time is over while their payment may be on its way: settled, or freed when unpaid (decision 030). */
  expiredHolds: BackgroundJob;
  /** Waiting lists' offers: seats come free (a hold ran out), offers paid or over (decision 086). */
  waitingLists: BackgroundJob;
  /** Monthly gifts' payments on the offline provider, taken on their day (decision 089). */
  regularGifts: BackgroundJob;
  /** Events' reminders, queued once their time comes (decision 096). */
  reminders: BackgroundJob;
  /** Whether the process can serve requests now, as `GET /readyz` says (server/health.ts). */
  readiness: Readiness;
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
    /** Asking for a staff password reset link, per address and per account. */
    passwordResets: PasswordResetLimits;
    /** Payment starts (bookings and donations), per address's keyed hash (decision 026). */
    paymentStarts: RateLimiter;
    /** Joining an event's waiting list, per address (decision 086). */
    waitingListJoins: RateLimiter;
    /** Asking /giving for fresh links to one's monthly gifts, per address and per e-mail address (decision 090). */
    givingLinksByAddress: RateLimiter;
    givingLinksByEmail: RateLimiter;
  };
  /** What a request gets: these services, with the charity's details as published now. */
  forRequest(): Promise<Services>;
  /**
   * Starts the work the site does by itself: the outbox's deliveries, the refunds, the expired
   * holds' sweep and the office's e-mails. Resolves once the office's first run is over.
   */
  start(): Promise<void>;
  /** Ends long-lived connections (the live feed) so the HTTP server can finish. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a request gets, `context.services`, and the one thing routes hand to a feature: each feature
 * function names, as its first parameter's type, the part of it that it uses
 * (docs/project-structure.md, "Reaching a feature").
 */
export interface Services extends SiteServices {
  /** The charity's details that receipts and letters carry, from the `site` content as the request began. */
  charity: Charity;
}

/**
 * Builds the site's parts on its database (opened from the configuration, or `database` when one is
 * given already open) and starts serving its content; `start()` sets the background work going.
 */
export async function createServices(
  config: Config,
  clock: Clock = systemClock,
  database?: DatabaseHandle,
): Promise<SiteServices> {
  // On the embedded database, a copy is taken before migrations are applied (decision 070).
  const before = backupBeforeMigrating(
    { dir: config.backups.dir ?? path.join(config.dataDir, "backups"), passphrase: config.backups.passphrase },
    () => clock.now(),
  );
  database ??= await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    beforeMigrating: before.beforeMigrating,
  });
  if (database.migrationsApplied.length > 0) {
    console.log(`Applied the migrations ${database.migrationsApplied.join(", ")}.`);
  }
  const { db } = database;
  try {
    await before.record(db);
    await ensureFirstStaffUser(db, config.firstStaff, clock.now());
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
    const charityNow = async () => charityOf((await currentContent()).site, config.publicUrl);
    const sessionSecret = config.sessionSecret ?? (await storedSecret(db, "session", clock.now()));
    if (config.sampleEvents) await seedSampleEvents(db, clock.now(), bookingTotalPence);
    const availability = new AvailabilityFeed(database, clock);
    await availability.start();
    // Stripe's package is loaded only when the site takes real payments (docs/performance.md, "Start").
    const payments = config.stripe
      ? (await import("~/infra/payments/stripe.server")).stripeProvider(config.stripe)
      : offlineProvider(db, clock);
    // Every e-mail's Reply-To is the charity's address, as the `site` content has it when it is sent.
    const sender = { from: config.mailFrom, replyTo: async () => (await currentContent()).site.email };
    const mailer = config.smtpUrl
      ? smtpMailer(config.smtpUrl, sender)
      : folderMailer(path.join(config.dataDir, "outbox"), sender);
    const outbox = new OutboxWorker(db, mailer, clock, { seal: new MailSeal(sessionSecret) });
    /** What the background work hands the features: as a request's services do. */
    const jobDeps = async () => ({ db, payments, clock, outbox, charity: await charityNow() });
    // Refunds a stop left pending (sent again with the same idempotency key) and cancelled events'
    // bookings carry on after a restart.
    const refunds = new BackgroundJob(
      "Refunds",
      async (shouldStop) => {
        const deps = await jobDeps();
        await runBookingRefunds(deps, { pauseMs: config.refundPauseMs, shouldStop });
        await finishPendingDonationRefunds(deps);
      },
      30_000,
    );
    const expiredHolds = new BackgroundJob(
      "The expired holds' sweep",
      async (shouldStop) => {
        await settleExpiredHolds(await jobDeps(), shouldStop);
      },
      5_000,
    );
    const waitingLists = new BackgroundJob(
      "The waiting lists' offers",
      async (shouldStop) => {
        await sweepWaitingLists(await jobDeps(), shouldStop);
      },
      10_000,
    );
    // Monthly gifts on the offline provider: the month's payments taken on their day (decision 089).
    const regularGifts = new BackgroundJob(
      "The monthly gifts' payments",
      async () => {
        const deps = await jobDeps();
        const recorded = await takeDueGiftPayments(deps);
        // Once a day, every gift checked with the provider, the truth (decision 091).
        const corrected = await reconcileOncePerDay(deps);
        if (recorded.length > 0 || (corrected?.length ?? 0) > 0) void outbox.deliverDue();
      },
      60_000,
    );
    // Each event's reminders, once per booking, when their time comes (decision 096).
    const reminders = new BackgroundJob(
      "The events' reminders",
      async (shouldStop) => {
        const queued = await queueDueReminders({ db, clock, charity: await charityNow() }, shouldStop);
        if (queued > 0) void outbox.deliverDue();
      },
      60_000,
    );
    const office = new BackgroundJob(
      "The office e-mails' sweep",
      async () => {
        const queued = await sweepOfficeMail(db, { now: clock.now(), charity: await charityNow() });
        if (queued > 0) void outbox.deliverDue();
      },
      5_000,
    );
    // Unexpected errors kept for /admin/system and the alerts; a failure to keep one is only logged.
    const stopKeepingErrors = onUnexpectedError((error) => {
      recordError(db, error, clock.now()).catch((failure: Error) =>
        console.error(JSON.stringify({ level: "error", msg: "an error could not be kept", error: failure.message })),
      );
    });
    const alerts = new BackgroundJob(
      "The alerts' check",
      async () => {
        const charity = await charityNow();
        const sent = await raiseAlerts({
          db,
          now: clock.now(),
          to: config.alertEmail ? { address: config.alertEmail } : { name: charity.name, address: charity.email },
          siteName: charity.name,
          website: config.publicUrl,
          backupsSetUp: Boolean(config.backups.dir),
        });
        if (sent.length > 0) void outbox.deliverDue();
      },
      60_000,
    );
    // The day's backup into BACKUP_DIR, by whichever process claims it (decision 070).
    const openDb = database;
    const backups = new BackgroundJob(
      "The daily backup",
      async () => {
        await runDailyBackup(openDb, config.backups, () => clock.now());
      },
      5 * 60_000,
    );
    const services: SiteServices = {
      config,
      db,
      engine: database.engine,
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
      refunds,
      expiredHolds,
      waitingLists,
      regularGifts,
      reminders,
      readiness: new Readiness({ database, outbox, holdSweeper: expiredHolds }),
      sessionSecret,
      limits: {
        volunteerSignUps: new RateLimiter(db, { name: "volunteer-sign-ups", limit: 5, windowMs: 15 * 60_000 }),
        staffSignIns: staffSignInLimits(db),
        passwordResets: passwordResetLimits(db),
        paymentStarts: new RateLimiter(db, { name: "payment-starts", ...paymentStartsPerAddress }),
        waitingListJoins: new RateLimiter(db, { name: "waiting-list-joins", limit: 10, windowMs: 15 * 60_000 }),
        givingLinksByAddress: new RateLimiter(db, { name: "giving-links-address", limit: 10, windowMs: 15 * 60_000 }),
        givingLinksByEmail: new RateLimiter(db, { name: "giving-links-email", limit: 3, windowMs: 60 * 60_000 }),
      },
      forRequest: async () => ({ ...services, charity: await charityNow() }),
      async start() {
        if (!config.databaseUrl) await outbox.resumeAlone();
        outbox.start();
        void refunds.start();
        void expiredHolds.start();
        void waitingLists.start();
        void regularGifts.start();
        void reminders.start();
        void alerts.start();
        void backups.start();
        await office.start();
      },
      drain: () => availability.close(),
      async close() {
        await contentStore.stop();
        await refunds.stop();
        await expiredHolds.stop();
        await waitingLists.stop();
        await regularGifts.stop();
        await reminders.stop();
        await office.stop();
        await alerts.stop();
        await backups.stop();
        stopKeepingErrors();
        await outbox.stop();
        mailer.close?.();
        await database.close();
      },
    };
    return services;
  } catch (error) {
    await database.close();
    throw error;
  }
}
