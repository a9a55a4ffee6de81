import path from "node:path";
import { z } from "zod";

// The one place that reads process.env: parsed once at start-up, so a bad value stops the
// server with a message naming the variable instead of failing at first use.

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/**
 * TRUST_PROXY: how many proxies stand in front of the site, each adding the address it was reached
 * from to X-Forwarded-For; the visitor's address is the entry the outermost of them added
 * (decision 025). `false` is 0. `true` is refused: it trusted whatever a visitor claims.
 */
const proxyHops = z.string().transform((value, ctx) => {
  if (value === "false") return 0;
  if (/^\d{1,2}$/.test(value) && Number(value) <= 10) return Number(value);
  ctx.addIssue({
    code: "custom",
    message:
      value === "true"
        ? 'must be the number of proxies in front of the site (usually 1), not "true": that trusted any address a visitor claims'
        : "must be the number of proxies in front of the site: 0 (none, the default) to 10",
  });
  return z.NEVER;
});

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: optionalString,
    DATA_DIR: z.string().trim().min(1).default("./data"),
    CONTENT_DIR: z.string().trim().min(1).default("./content"),
    DATABASE_URL: optionalString.pipe(
      z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
    ),
    PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    TRUST_PROXY: optionalString.pipe(proxyHops.optional()),
    SAMPLE_EVENTS: optionalString.pipe(z.enum(["true", "false"], { error: "must be true or false" }).optional()),
    PAYMENT_CHALLENGE: optionalString.pipe(
      z.enum(["spike", "always"], { error: "must be spike or always" }).optional(),
    ),
    STRIPE_SECRET_KEY: optionalString.pipe(z.string().startsWith("sk_").optional()),
    STRIPE_PUBLISHABLE_KEY: optionalString.pipe(z.string().startsWith("pk_").optional()),
    STRIPE_WEBHOOK_SECRET: optionalString.pipe(z.string().startsWith("whsec_").optional()),
    STRIPE_API_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    STRIPE_BACS_OWN_NOTICES: optionalString.pipe(
      z.enum(["true", "false"], { error: "must be true or false" }).optional(),
    ),
    DEMO_PAYMENTS: optionalString.pipe(z.enum(["true", "false"], { error: "must be true or false" }).optional()),
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    MAIL_FROM: optionalString,
    ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
    ADMIN_PASSWORD: optionalString.pipe(z.string().min(12, "must be at least 12 characters").optional()),
    SESSION_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    REFUND_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).optional(),
    ALERT_EMAIL: optionalString.pipe(z.email().optional()),
    METRICS_TOKEN: optionalString.pipe(
      z
        .string()
        .min(24, "must be at least 24 characters")
        .regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces")
        .optional(),
    ),
    BACKUP_DIR: optionalString,
    BACKUP_HOUR: optionalString.pipe(
      z
        .string()
        .regex(/^([01]?\d|2[0-3])$/, "must be an hour of the day, 0 to 23 (London time)")
        .transform(Number)
        .optional(),
    ),
    BACKUP_KEEP: optionalString.pipe(
      z
        .string()
        .regex(/^([1-9]\d{0,2})$/, "must be a whole number from 1 to 999")
        .transform(Number)
        .optional(),
    ),
    BACKUP_PASSPHRASE: optionalString.pipe(z.string().min(12, "must be at least 12 characters").optional()),
    SITE_PROCESSES: optionalString.pipe(
      z
        .string()
        .regex(/^([1-9]|[12]\d|3[0-2])$/, "must be a whole number from 1 to 32")
        .transform(Number)
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const stripe = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET];
    if (stripe.some(Boolean) && !stripe.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_SECRET_KEY"],
        message: "set all three of STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or none",
      });
    }
    const problem = demoPaymentsProblem(env, stripe.every(Boolean));
    if (problem) ctx.addIssue({ code: "custom", path: ["DEMO_PAYMENTS"], message: problem });
    if ((env.SITE_PROCESSES ?? 1) > 1 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SITE_PROCESSES"],
        message:
          "several processes need a PostgreSQL database (DATABASE_URL): the embedded database's folder is opened by one process only",
      });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: ["ADMIN_PASSWORD"],
        message: "set ADMIN_EMAIL and ADMIN_PASSWORD together",
      });
    }
  });

interface PaymentSettings {
  NODE_ENV: string;
  DATABASE_URL?: string | undefined;
  PUBLIC_URL?: string | undefined;
  DEMO_PAYMENTS?: "true" | "false" | undefined;
}

/**
 * Whether a site without Stripe keys takes the offline test cards (a demonstration, with its banner).
 * Outside production, always. In production only when DEMO_PAYMENTS=true says so, or, with
 * DEMO_PAYMENTS unset, on the embedded defaults (no DATABASE_URL, no PUBLIC_URL): `npm start` with
 * nothing set is a demonstration of the site on a laptop, never a site that real visitors pay on.
 */
function demoPayments(env: PaymentSettings): boolean {
  if (env.DEMO_PAYMENTS) return env.DEMO_PAYMENTS === "true";
  return env.NODE_ENV !== "production" || (!env.DATABASE_URL && !env.PUBLIC_URL);
}

function demoPaymentsProblem(env: PaymentSettings, stripeSet: boolean): string | undefined {
  if (stripeSet) {
    return env.DEMO_PAYMENTS === "true"
      ? "DEMO_PAYMENTS=true takes only test cards, yet the Stripe keys are set: unset one or the other"
      : undefined;
  }
  if (env.NODE_ENV !== "production" || demoPayments(env)) return undefined;
  return (
    'a production site needs a payment provider, or real events would be "sold" with test cards. ' +
    "Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET to take real card payments, " +
    "or set DEMO_PAYMENTS=true if this site is a demonstration (test cards only, no real money is charged)"
  );
}

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment into the site's configuration; throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>) {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "environment"}: ${issue.message}`);
    throw new ConfigError(`The configuration is not valid:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const production = e.NODE_ENV === "production";
  return {
    mode: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    contentDir: path.resolve(e.CONTENT_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    /** Whether PUBLIC_URL was given: without it, links a page shares use the address it was asked at. */
    publicUrlSet: Boolean(e.PUBLIC_URL),
    /** Proxies in front of the site whose X-Forwarded-For entries are believed (Express's `trust proxy` hop count). */
    trustProxy: e.TRUST_PROXY ?? 0,
    /** Start an empty embedded database with sample events (default), never a PostgreSQL one unless asked. */
    sampleEvents: e.SAMPLE_EVENTS ? e.SAMPLE_EVENTS === "true" : !e.DATABASE_URL,
    /**
     * When a payment start needs a solved proof-of-work challenge: during a spike of payments
     * (default), or always (a site under attack, decision 026).
     */
    paymentChallenge: e.PAYMENT_CHALLENGE ?? "spike",
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiUrl: e.STRIPE_API_URL,
            // The site sends the Bacs notices itself only when the charity's own are approved (decision 092).
            bacsOwnNotices: e.STRIPE_BACS_OWN_NOTICES === "true",
          }
        : undefined,
    /** No card provider: the offline test cards, with the banner that says no real money is charged. */
    demoPayments: !(e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET) && demoPayments(e),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "Kilele Village Trust <no-reply@example.org>",
    firstStaff: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    /** Signs known-device cookies; unset, the site makes one and keeps it in the database (decision 025). */
    sessionSecret: e.SESSION_SECRET,
    /** A pause between the bookings a cancelled event refunds: 0 normally; the tests slow it to stop it half way. */
    refundPauseMs: e.REFUND_PAUSE_MS ?? 0,
    /** Who the site's alerts go to (e-mails not going out, errors piling up); unset, the charity's own address. */
    alertEmail: e.ALERT_EMAIL,
    /** The bearer token a scraper sends for GET /metrics; unset, /metrics is not offered at all. */
    metricsToken: e.METRICS_TOKEN,
    /**
     * The site's own daily backups (docs/decisions/070-backups-made-by-the-site.md): the folder
     * (unset: none are made), the London hour they are made at or after, how many are kept besides
     * the monthly ones, and the passphrase they are encrypted with (unset: not encrypted).
     */
    backups: {
      dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : undefined,
      hour: e.BACKUP_HOUR ?? 2,
      keep: e.BACKUP_KEEP ?? 14,
      passphrase: e.BACKUP_PASSPHRASE,
    },
    /** How many processes answer on the port, `npm start` forking them (decision 047); more than one only on PostgreSQL. */
    processes: e.SITE_PROCESSES ?? 1,
  };
}

let current: Config | undefined;

/** The configuration of this process, parsed from process.env on first use. */
export function getConfig(): Config {
  current ??= parseConfig(process.env);
  return current;
}
