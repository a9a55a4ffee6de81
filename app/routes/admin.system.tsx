import { Link } from "react-router";
import type { Route } from "./+types/admin.system";
import { ErrorPage } from "~/components/layout/error-page";
import { TableScroll } from "~/components/ui/table-scroll";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { mailMode } from "~/features/emails/mail-mode";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { alertRules, systemReport } from "~/infra/signals.server";
import { megabytes } from "~/lib/images";
import { londonDate, londonTime } from "~/lib/london-time";

// /admin/system: how the site itself is, for whoever looks after it: its version and how long it
// has run, its database, the e-mails waiting, the unexpected errors of the last day with the
// references visitors were shown, the backups the site makes, and where alerts go (docs/operations.md, "What to watch").
export const loader = pageWork("The system page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "site");
  const { config, clock, db } = context.services;
  const now = clock.now();
  const report = await systemReport(db, now, { backupsSetUp: Boolean(config.backups.dir) });
  return {
    ...report,
    now,
    engine: context.services.engine === "postgres" ? "PostgreSQL" : "the embedded database (PGlite)",
    processes: config.processes,
    alertsTo: config.alertEmail ?? context.services.charity.email,
    // The words name settings (SMTP_URL…), so they are made here and never sit in the page's script.
    setup: {
      mail:
        mailMode(context.services) === "smtp"
          ? "Sent through the mail server SMTP_URL names."
          : "Not set up: no mail server is set (SMTP_URL), so each e-mail is only written as a file to the outbox folder in the data folder, and nobody receives it. To send them, whoever runs the site sets SMTP_URL and MAIL_FROM and starts the site again (the operations guide, “E-mail”).",
      payments:
        context.services.payments.name === "stripe"
          ? "Real card payments through Stripe."
          : "Demo mode: only the test cards are taken (4242 4242 4242 4242), and no money moves. To take real payments, whoever runs the site sets the three Stripe keys and starts the site again (the operations guide, “Payments”).",
    },
    rules: alertRules,
    backupSettings: {
      dir: config.backups.dir ?? null,
      hour: config.backups.hour,
      keep: config.backups.keep,
      encrypted: Boolean(config.backups.passphrase),
    },
  };
});

export const meta: Route.MetaFunction = () => adminMeta("System");

/** "3 days 4 hours", "2 hours 5 minutes", "12 minutes": how long, to the nearest minute. */
function howLong(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), "day"],
    [Math.floor((minutes % 1440) / 60), "hour"],
    [minutes % 60, "minute"],
  ];
  const shown = parts.filter(([n]) => n > 0).slice(0, 2);
  if (shown.length === 0) return "less than a minute";
  return shown.map(([n, unit]) => `${n} ${unit}${n === 1 ? "" : "s"}`).join(" ");
}

/** The last part of a path, whichever separator it has. */
const fileName = (file: string) => file.split(/[\\/]/).at(-1) ?? file;

const at = (date: Date | string) => `${londonDate(date)} at ${londonTime(date)}`;

export default function AdminSystem({ loaderData: report }: Route.ComponentProps) {
  const now = new Date(report.now);
  const startedAt = new Date(report.startedAt);
  return (
    <main id="main" className="page">
      <h1>System</h1>
      {report.problems.length > 0 ? (
        <section className="notice notice-error" aria-labelledby="problems-heading">
          <h2 id="problems-heading">Needs attention</h2>
          <ul>
            {report.problems.map((problem) => (
              <li key={problem.kind}>{problem.problem}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="section" aria-labelledby="site-heading">
        <h2 id="site-heading">The site</h2>
        <dl className="facts">
          <div>
            <dt>Version</dt>
            <dd>{report.version}</dd>
          </div>
          <div>
            <dt>Running</dt>
            <dd>
              for {howLong(now.getTime() - startedAt.getTime())}, since {at(startedAt)}
              {report.processes > 1 ? ` (this process; ${report.processes} processes answer)` : ""}
            </dd>
          </div>
          <div>
            <dt>Node.js</dt>
            <dd>{report.node}</dd>
          </div>
          <div>
            <dt>Database</dt>
            <dd>
              {report.engine}: {report.database.version}, {megabytes(report.database.sizeBytes)}
            </dd>
          </div>
        </dl>
      </section>
      <section className="section" aria-labelledby="setup-heading" id="setup">
        <h2 id="setup-heading">E-mail and payments</h2>
        <dl className="facts">
          <div>
            <dt>E-mail</dt>
            <dd>{report.setup.mail}</dd>
          </div>
          <div>
            <dt>Payments</dt>
            <dd>{report.setup.payments}</dd>
          </div>
        </dl>
      </section>
      <section className="section" aria-labelledby="mail-heading">
        <h2 id="mail-heading">E-mails waiting</h2>
        <p>
          {report.outbox.unsent === 0
            ? "None: every e-mail has gone out."
            : `${report.outbox.unsent} waiting; the oldest since ${at(report.outbox.oldestQueuedAt!)}.`}{" "}
          <Link to="/admin/emails">See the e-mails</Link>
        </p>
      </section>
      <section className="section" aria-labelledby="errors-heading">
        <h2 id="errors-heading">Unexpected errors in the last 24 hours</h2>
        {report.errors.length === 0 ? (
          <p>None.</p>
        ) : (
          <>
            <p>
              Newest first{report.errors.length === 100 ? " (the latest 100)" : ""}. A visitor who saw an error was
              shown its reference; the request id finds its lines in the server&apos;s log.
            </p>
            <TableScroll label="Table of unexpected errors">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Reference</th>
                    <th scope="col">Request id</th>
                    <th scope="col">Where</th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {report.errors.map((error, i) => (
                    <tr key={`${error.ref}-${i}`}>
                      <td data-label="When">{at(error.at)}</td>
                      <td data-label="Reference">{error.ref}</td>
                      <td data-label="Request id">{error.requestId ?? "none (not in a request)"}</td>
                      <td data-label="Where">{error.where}</td>
                      <td data-label="Error">{error.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </section>
      <section className="section" aria-labelledby="backups-heading">
        <h2 id="backups-heading">Backups</h2>
        {report.backupSettings.dir === null ? (
          <p className="notice">
            Backups are not set up: the site makes none by itself. Set BACKUP_DIR to a folder, and copy what it writes
            there to another machine (the operations guide, &ldquo;Backups&rdquo;).
          </p>
        ) : (
          <dl className="facts">
            <div>
              <dt>Last good backup</dt>
              <dd>
                {report.backups.lastGood
                  ? `${at(report.backups.lastGood.at)} (${howLong(now.getTime() - new Date(report.backups.lastGood.at).getTime())} ago), ${megabytes(report.backups.lastGood.bytes)}: ${fileName(report.backups.lastGood.file)}`
                  : "None yet."}
              </dd>
            </div>
            {report.backups.lastFailure ? (
              <div>
                <dt>Last attempt</dt>
                <dd>
                  Failed {at(report.backups.lastFailure.at)}: {report.backups.lastFailure.error}
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Where</dt>
              <dd>{report.backupSettings.dir}, on this server: copy them to another machine.</dd>
            </div>
            <div>
              <dt>When</dt>
              <dd>
                Every day from {String(report.backupSettings.hour).padStart(2, "0")}:00 London time; the newest{" "}
                {report.backupSettings.keep} are kept, and the first of each month for a year.
              </dd>
            </div>
            <div>
              <dt>Encrypted</dt>
              <dd>
                {report.backupSettings.encrypted
                  ? "Yes, with the passphrase BACKUP_PASSPHRASE: a restore asks for it."
                  : "No (BACKUP_PASSPHRASE is not set): the files hold personal data as they are."}
              </dd>
            </div>
          </dl>
        )}
      </section>
      <section className="section" aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Alerts</h2>
        <p>
          Alerts go by e-mail to {report.alertsTo} when an e-mail has waited more than {report.rules.unsentMs / 60_000}{" "}
          minutes, more than {report.rules.errors} unexpected errors come within {report.rules.errorWindowMs / 60_000}{" "}
          minutes
          {report.backupSettings.dir === null
            ? ""
            : `, a backup fails, or the last good backup is more than ${report.rules.backupAgeMs / 3_600_000} hours old`}
          ; at most one of a kind an hour.
        </p>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
