import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "~/infra/config.server";
import type { Database, DatabaseHandle } from "~/infra/db/database.server";
import { sessionCookieName, startSession } from "~/features/staff/staff.server";
import type { StaffRole } from "~/features/staff/roles";
import { staffUsers } from "~db/schema";
import type { Clock } from "~/lib/clock";
import { createServices, type Services } from "../../server/services";

/** The site's services on a test's database, and what one request gets of them. */
export interface TestServices {
  /** `context.services` for a route module, as the server hands it to a request. */
  request(): Promise<Services>;
  /** Closes the services and the database they were given. */
  close(): Promise<void>;
}

/**
 * The site's own services, built as the server builds them (server/services.ts), on a test's
 * database and clock, with the configuration `env` gives (the embedded defaults otherwise; its data
 * folder is a new temporary one, where e-mails go when no SMTP_URL is set). Nothing runs in the
 * background: the server's `start()` is not called, so a test runs a job when it means to.
 */
export async function testServices(
  database: DatabaseHandle,
  clock: Clock,
  env: Record<string, string> = {},
): Promise<TestServices> {
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "kilele-services-"));
  const config = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SAMPLE_EVENTS: "false", ...env });
  const services = await createServices(config, clock, database);
  return {
    request: () => services.forRequest(),
    async close() {
      await services.drain();
      await services.close();
      await fs.promises.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The configuration of a site taking card payments through Stripe at `stripe` (a StripeStandIn's `settings()`). */
export function stripeConfigured(stripe: {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  apiUrl: string;
}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.apiUrl,
  };
}

/** A route module's action or loader, called as React Router calls it: it answers a Response or its data. */
type RouteHandler<T> = (args: never) => Promise<T>;

/** Calls a route module's action (or loader) with `request`, as a request from `clientAddress` would reach it. */
export function callRoute<T>(
  handler: RouteHandler<T>,
  request: Request,
  services: Services,
  { clientAddress = "203.0.113.7", params = {} }: { clientAddress?: string; params?: Record<string, string> } = {},
): Promise<T> {
  return handler({ request, params, context: { services, clientAddress } } as never);
}

/**
 * A member of staff (an Owner, unless `role` says otherwise) signed in at `now`: their row and the
 * Cookie header a request of theirs carries.
 */
export async function signedInStaff(
  db: Database,
  now: Date,
  member: { email?: string; role?: StaffRole } = {},
): Promise<{ staff: { id: string; email: string }; cookie: string }> {
  const [staff] = await db
    .insert(staffUsers)
    .values({
      email: member.email ?? "trustee@example.org",
      passwordHash: "not used here",
      createdAt: now,
      ...(member.role && { role: member.role }),
    })
    .returning({ id: staffUsers.id, email: staffUsers.email });
  return { staff: staff!, cookie: `${sessionCookieName}=${(await startSession(db, staff!, now)).token}` };
}
