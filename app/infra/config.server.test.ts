import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";

describe("the configuration", () => {
  it("runs on embedded defaults with nothing set", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      production: false,
      databaseUrl: undefined,
      stripe: undefined,
      smtpUrl: undefined,
      dataDir: path.resolve("data"),
      publicUrl: "http://localhost:3000",
      publicUrlSet: false,
    });
    expect(parseConfig({ PUBLIC_URL: "https://www.example.org" })).toMatchObject({
      publicUrl: "https://www.example.org",
      publicUrlSet: true,
    });
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", SMTP_URL: " " }).databaseUrl).toBeUndefined();
  });

  it("stops with a message naming each bad variable", () => {
    const attempt = () => parseConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", SESSION_SECRET: "short" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(attempt).toThrow(/SESSION_SECRET: must be at least 32 characters/);
  });

  it("offers /metrics only with a METRICS_TOKEN long enough not to be guessed", () => {
    expect(parseConfig({}).metricsToken).toBeUndefined();
    expect(parseConfig({ METRICS_TOKEN: "a".repeat(24) }).metricsToken).toBe("a".repeat(24));
    expect(() => parseConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 24 characters/);
    expect(() => parseConfig({ METRICS_TOKEN: `${"a".repeat(24)} b` })).toThrow(
      /METRICS_TOKEN: must be printable characters without spaces/,
    );
  });

  it("makes backups only with BACKUP_DIR, at BACKUP_HOUR (default 2), keeping BACKUP_KEEP (default 14)", () => {
    expect(parseConfig({}).backups).toEqual({ dir: undefined, hour: 2, keep: 14, passphrase: undefined });
    const set = parseConfig({
      BACKUP_DIR: "/var/backups/kilele",
      BACKUP_HOUR: "23",
      BACKUP_KEEP: "30",
      BACKUP_PASSPHRASE: "twelve chars",
    });
    expect(set.backups).toEqual({ dir: "/var/backups/kilele", hour: 23, keep: 30, passphrase: "twelve chars" });
    expect(() => parseConfig({ BACKUP_HOUR: "24" })).toThrow(/BACKUP_HOUR: must be an hour of the day, 0 to 23/);
    expect(() => parseConfig({ BACKUP_KEEP: "0" })).toThrow(/BACKUP_KEEP: must be a whole number from 1 to 999/);
    expect(() => parseConfig({ BACKUP_PASSPHRASE: "short" })).toThrow(/BACKUP_PASSPHRASE: must be at least 12/);
  });

  it("wants the three Stripe keys together", () => {
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(/STRIPE_SECRET_KEY: set all three/);
    const config = parseConfig({
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_PUBLISHABLE_KEY: "pk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
    });
    expect(config.stripe?.publishableKey).toBe("pk_test_1");
  });

  it("wants ADMIN_EMAIL and ADMIN_PASSWORD together", () => {
    expect(() => parseConfig({ ADMIN_EMAIL: "staff@example.org" })).toThrow(/ADMIN_PASSWORD/);
  });

  it("takes TRUST_PROXY as a number of proxy hops, and refuses true", () => {
    expect(parseConfig({}).trustProxy).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(() => parseConfig({ TRUST_PROXY: "true" })).toThrow(
      /TRUST_PROXY: must be the number of proxies .*not "true"/,
    );
    expect(() => parseConfig({ TRUST_PROXY: "many" })).toThrow(/TRUST_PROXY: must be the number of proxies/);
  });

  it("runs one process unless SITE_PROCESSES asks for more, and more only on PostgreSQL", () => {
    expect(parseConfig({}).processes).toBe(1);
    const postgres = { DATABASE_URL: "postgres://localhost/site" };
    expect(parseConfig({ ...postgres, SITE_PROCESSES: "4" }).processes).toBe(4);
    expect(parseConfig({ SITE_PROCESSES: "1" }).processes).toBe(1);
    expect(() => parseConfig({ SITE_PROCESSES: "2" })).toThrow(
      /SITE_PROCESSES: several processes need a PostgreSQL database \(DATABASE_URL\)/,
    );
    for (const value of ["0", "33", "two", "1.5"]) {
      expect(() => parseConfig({ ...postgres, SITE_PROCESSES: value })).toThrow(
        /SITE_PROCESSES: must be a whole number from 1 to 32/,
      );
    }
  });

  describe("payments in production", () => {
    const stripeKeys = {
      STRIPE_SECRET_KEY: "sk_live_1",
      STRIPE_PUBLISHABLE_KEY: "pk_live_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
    };

    it("refuses a production site with a database or an address but no Stripe keys, naming both choices", () => {
      for (const env of [
        { NODE_ENV: "production", DATABASE_URL: "postgres://db.example.org/site" },
        { NODE_ENV: "production", PUBLIC_URL: "https://www.example.org" },
        { NODE_ENV: "production", DEMO_PAYMENTS: "false" },
      ]) {
        const attempt = () => parseConfig(env);
        expect(attempt).toThrow(ConfigError);
        expect(attempt).toThrow(/DEMO_PAYMENTS: a production site needs a payment provider/);
        expect(attempt).toThrow(/Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET/);
        expect(attempt).toThrow(/or set DEMO_PAYMENTS=true if this site is a demonstration/);
      }
    });

    it("takes test cards in production only as a declared demonstration, or on the embedded defaults", () => {
      // `npm start` with nothing set: the laptop demonstration.
      expect(parseConfig({ NODE_ENV: "production" })).toMatchObject({ stripe: undefined, demoPayments: true });
      expect(
        parseConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example.org/site", DEMO_PAYMENTS: "true" }),
      ).toMatchObject({ stripe: undefined, demoPayments: true });
      expect(parseConfig({ NODE_ENV: "production", PUBLIC_URL: "https://x.example.org", ...stripeKeys })).toMatchObject(
        { demoPayments: false, stripe: { secretKey: "sk_live_1" } },
      );
      // Development and tests run on test cards unless told otherwise.
      expect(parseConfig({ DATABASE_URL: "postgres://db.example.org/site" }).demoPayments).toBe(true);
    });

    it("refuses DEMO_PAYMENTS=true beside Stripe keys, and a value that is not true or false", () => {
      expect(() => parseConfig({ DEMO_PAYMENTS: "true", ...stripeKeys })).toThrow(
        /DEMO_PAYMENTS=true takes only test cards, yet the Stripe keys are set/,
      );
      expect(() => parseConfig({ DEMO_PAYMENTS: "yes" })).toThrow(/DEMO_PAYMENTS: must be true or false/);
    });
  });
});
