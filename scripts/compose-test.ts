// `npm run test:compose`: the whole of compose.yaml (the site, PostgreSQL and Caddy) run with
// podman-compose, as an operator runs it. It takes minutes, so it is not part of `npm test`
// (docs/operations.md, "Putting it online: containers"; docs/testing.md):
//
//  1. the site's image, as `npm run test:container` builds it (FROM a local Debian bookworm base),
//     tagged kilele-site, the name compose.yaml gives it;
//  2. stand-ins for the two images compose.yaml pulls, where they are not here already (this
//     machine has no image registry), built FROM the same base and tagged with the official names,
//     so compose.yaml runs unchanged (scripts/compose-stand-ins/):
//       docker.io/library/postgres:16-bookworm: Debian bookworm's PostgreSQL, which is 15 (bookworm
//         has no postgresql-16), with an entrypoint that makes the database from POSTGRES_USER,
//         POSTGRES_PASSWORD and POSTGRES_DB on the first start, as the official image does;
//       docker.io/library/caddy:2: Debian's caddy package (2.6), run as the official image runs it;
//  3. `.env`'s settings: SITE_DOMAIN=localhost (for which Caddy serves HTTPS with a certificate from
//     its own local authority, so the real Caddyfile is used as it is), DEMO_PAYMENTS=true, the first
//     staff account, and SMTP_URL pointing at an SMTP server this test runs on this machine;
//  4. `podman-compose up -d`, never pulling (a small override file says `pull_policy: never`),
//     until the site's health check passes and Caddy answers over HTTPS on port 443;
//  5. a ticket bought through the JSON API, through Caddy, with the offline card provider, and its
//     confirmation e-mail received by the SMTP server;
//  6. a backup made inside the site's container (npm run backup), found in the backups volume;
//  7. `podman-compose down` (the volumes kept), `up -d` again: the booking is there, paid;
//  8. `podman-compose down -v`: containers and volumes gone.
//
// podman-compose 1.0 reads `.env` beside compose.yaml over the environment and has no --env-file,
// so the settings go to it in the environment, and the test stops if there is a `.env` there (an
// operator's, which it must not use or overwrite). It does not wait for `condition: service_healthy`
// either: it starts the three containers in order at once. The site does not wait for PostgreSQL at
// its start; if it exits for that, its restart policy is what starts it again, so the test says how
// many times the site started. The project is
// named kilele-compose-test (-p), apart from an operator's `kilele`. `--keep` keeps it all running
// at the end, for a look (then: podman-compose -p kilele-compose-test down -v).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TestSmtpServer } from "../tests/support/smtp";
import {
  baseImage,
  buildSiteImage,
  buyTicket,
  check,
  podman,
  podmanEnv,
  printTimings,
  readBooking,
  requireTool,
  run,
  siteImage,
  sleep,
  timed,
  timedAsync,
  timings,
} from "./container-test";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const standIns = path.join(root, "scripts", "compose-stand-ins");
const project = "kilele-compose-test";
const keep = process.argv.includes("--keep");
const staff = { email: "staff@example.org", password: "a long staff password" };
const domain = "localhost";
const siteUrl = `https://${domain}`;
const container = (service: string) => `${project}_${service}_1`;
const volume = (name: string) => `${project}_${name}`;
const postgresImage = "docker.io/library/postgres:16-bookworm";
const caddyImage = "docker.io/library/caddy:2";

/** An image compose.yaml names: the real one if it is here, else the stand-in, built (quickly, from cache, once made). */
function standIn(image: string, containerfile: string, base: string): string {
  const label = podman(["image", "inspect", "--format", '{{index .Labels "uk.org.kilele.stand-in"}}', image], {
    quiet: true,
    mayFail: true,
  });
  if (label.status === 0 && ["", "<no value>"].includes(label.stdout.trim())) {
    return `${image}: the real image, already here`;
  }
  podman(
    [
      "build",
      "--format",
      "docker",
      // apt-get reaches Debian's mirror as this machine does.
      "--network",
      "host",
      "--build-arg",
      `BASE_IMAGE=${base}`,
      "--file",
      path.join(standIns, containerfile),
      "--tag",
      image,
      standIns,
    ],
    { quiet: true },
  );
  return `${image}: a stand-in from ${containerfile}`;
}

/** Whether something on this machine already listens on `port` (compose.yaml publishes 80 and 443). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(true));
    server.listen(port, "0.0.0.0", () => server.close(() => resolve(false)));
  });
}

/** podman-compose up -d; podman-compose 1.0 carries on when a container will not start, so this stops there. */
function composeUp(env: Record<string, string>, override: string) {
  compose(["up", "-d", "--no-build"], env, override);
  for (const service of ["db", "site", "caddy"]) {
    if (inspect(container(service), "{{.State.Status}}") === "created") {
      const start = podman(["start", container(service)], { quiet: true, mayFail: true });
      if (start.status !== 0) throw new Error(`${container(service)} would not start:\n${start.stderr}`);
    }
  }
}

/** podman-compose on compose.yaml and the test's override, with the test's `.env` settings in its environment. */
function compose(args: string[], env: Record<string, string>, override: string, mayFail = false) {
  return run(
    "podman-compose",
    ["--project-name", project, "--file", path.join(root, "compose.yaml"), "--file", override, ...args],
    { quiet: true, mayFail, env: { ...podmanEnv, ...env } },
  );
}

const inspect = (name: string, format: string) =>
  podman(["container", "inspect", "--format", format, name], { quiet: true, mayFail: true }).stdout.trim();

function logsOf(service: string) {
  const logs = podman(["logs", "--tail", "40", container(service)], { quiet: true, mayFail: true });
  return `--- ${container(service)} ---\n${logs.stdout}${logs.stderr}`;
}

/**
 * Waits until the site's container passes its health check (podman runs health checks from systemd
 * timers, and there may be no systemd: the test runs the check itself), then until Caddy answers
 * https://localhost/readyz with 200.
 */
async function waitForStack(ca: () => string | undefined) {
  const deadline = performance.now() + 180_000;
  let healthy = false;
  while (performance.now() < deadline) {
    const state = inspect(container("site"), "{{.State.Status}}");
    if (!healthy && state === "running") {
      healthy = podman(["healthcheck", "run", container("site")], { quiet: true, mayFail: true }).status === 0;
    }
    if (healthy) {
      const answer = await httpsStatus(`${siteUrl}/readyz`, ca());
      if (answer === 200) return;
    }
    await sleep(1_000);
  }
  throw new Error(
    `The stack was not ready in 3 minutes (site ${healthy ? "healthy" : "not healthy"}):\n` +
      ["db", "site", "caddy"].map(logsOf).join("\n"),
  );
}

/** The status of a GET over HTTPS, trusting `ca` alone when given (0 when there is no answer). */
function httpsStatus(url: string, ca?: string): Promise<number> {
  return new Promise((resolve) => {
    const request = https.get(url, { ca, rejectUnauthorized: Boolean(ca), timeout: 3_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(0));
  });
}

/** Caddy's local certificate authority's root, which signed the certificate it serves for localhost. */
function caddyRoot(): string | undefined {
  const certificate = podman(["exec", container("caddy"), "cat", "/data/caddy/pki/authorities/local/root.crt"], {
    quiet: true,
    mayFail: true,
  });
  return certificate.status === 0 && certificate.stdout.includes("BEGIN CERTIFICATE") ? certificate.stdout : undefined;
}

function volumePath(name: string): string {
  return podman(["volume", "inspect", "--format", "{{.Mountpoint}}", volume(name)], { quiet: true }).stdout.trim();
}

async function main() {
  requireTool("podman", "podman buildah runc");
  requireTool("podman-compose", "podman-compose");
  const started = performance.now();
  if (fs.existsSync(path.join(root, ".env"))) {
    console.error(
      "There is a .env beside compose.yaml. podman-compose 1.0 would read it over the test's own settings, " +
        "and the test will not overwrite it: move it aside while the test runs.",
    );
    process.exit(1);
  }
  for (const port of [80, 443]) {
    if (await portTaken(port)) {
      console.error(`Port ${port} is in use on this machine; compose.yaml publishes Caddy on 80 and 443.`);
      process.exit(1);
    }
  }
  const version = run("podman-compose", ["version"], { quiet: true, mayFail: true });
  console.log((version.stdout.match(/podman-compos\w* version\s+\S+/) ?? ["podman-compose"])[0]);

  const base = timed("base image", () => baseImage());
  buildSiteImage(base.image);
  // compose.yaml's `image: kilele-site` (its `build: .` is done above, FROM the local base).
  podman(["tag", siteImage, "localhost/kilele-site:latest"], { quiet: true });
  const images = timed("stand-in images", () => [
    standIn(postgresImage, "postgres.Containerfile", base.image),
    standIn(caddyImage, "caddy.Containerfile", base.image),
  ]);
  const postgresVersion = podman(["run", "--rm", "--entrypoint", "postgres", postgresImage, "--version"], {
    quiet: true,
  }).stdout.trim();
  const caddyVersion = podman(["run", "--rm", caddyImage, "caddy", "version"], { quiet: true }).stdout.trim();
  console.log(`\nImages:\n  ${images.join("\n  ")}`);
  console.log(
    `  ${postgresImage} runs ${postgresVersion}${/ 15\./.test(postgresVersion) ? " (15 under the 16 tag: Debian bookworm has no PostgreSQL 16)" : ""}`,
  );
  console.log(`  ${caddyImage} runs Caddy ${caddyVersion.split(" ")[0]}`);

  const smtp = await new TestSmtpServer().start(0, "0.0.0.0");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "kilele-compose-test-"));
  // What an operator writes in .env (deploy/container/env.example), for this test.
  const env: Record<string, string> = {
    SITE_DOMAIN: domain,
    POSTGRES_PASSWORD: crypto.randomBytes(24).toString("hex"),
    // The SMTP server above, on this machine, as the containers see it.
    SMTP_URL: `smtp://host.containers.internal:${smtp.port}`,
    MAIL_FROM: "Kilele Village Trust <no-reply@example.org>",
    STRIPE_SECRET_KEY: "",
    STRIPE_PUBLISHABLE_KEY: "",
    STRIPE_WEBHOOK_SECRET: "",
    DEMO_PAYMENTS: "true",
    ADMIN_EMAIL: staff.email,
    ADMIN_PASSWORD: staff.password,
    SESSION_SECRET: "",
    SITE_PROCESSES: "1",
    BACKUP_HOUR: "",
    BACKUP_KEEP: "",
    BACKUP_PASSPHRASE: "",
  };
  fs.writeFileSync(
    path.join(work, ".env"),
    Object.entries(env)
      .map(([name, value]) => `${name}=${value}`)
      .join("\n") + "\n",
    { mode: 0o600 },
  );
  // Every image is here already: never pull (podman-compose 1.0 has no --pull never of its own).
  // And this machine's one difference: given any ulimit (compose.yaml gives the site nofile), podman
  // adds RLIMIT_NPROC at the host's maximum, which this machine refuses a container ("error setting
  // rlimit type 6"); a lower one is allowed. JSON is YAML, as podman-compose reads it.
  const override = path.join(work, "compose.test.yaml");
  fs.writeFileSync(
    override,
    JSON.stringify({
      services: {
        site: { pull_policy: "never", ulimits: { nproc: 4096 } },
        db: { pull_policy: "never" },
        caddy: { pull_policy: "never" },
      },
    }),
  );
  console.log(`\nThe test's .env and override: ${work}`);

  let authority: string | undefined;
  let removed = false;
  try {
    console.log(`\npodman-compose -p ${project} up -d ...`);
    await timedAsync("up -d, until healthy over HTTPS", async () => {
      composeUp(env, override);
      await waitForStack(() => (authority ??= caddyRoot()));
    });
    for (const service of ["db", "site", "caddy"]) {
      check(inspect(container(service), "{{.State.Status}}") === "running", `${container(service)} is running`);
    }
    const siteStarts = Number(inspect(container("site"), "{{.RestartCount}}")) + 1;
    console.log(
      `  (the site started ${siteStarts} time${siteStarts === 1 ? "" : "s"}: podman-compose 1.0 does not wait for the database's health check)`,
    );
    check(authority, "Caddy made its own certificate authority for localhost (in the caddy-data volume)");
    check(
      (await httpsStatus(`${siteUrl}/readyz`, authority)) === 200,
      "Caddy serves https://localhost with a certificate from that authority, and the site answers through it",
    );
    const redirect = await new Promise<string | undefined>((resolve) => {
      const socket = net.connect(80, "127.0.0.1", () =>
        socket.end("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
      );
      socket.on("data", (data) => resolve(/^location: (\S+)/im.exec(String(data))?.[1]));
      socket.on("error", () => resolve(undefined));
    });
    check(redirect === `${siteUrl}/`, `port 80 redirects to HTTPS (${redirect})`);
    const hba = podman(["exec", container("db"), "sh", "-c", 'tail -n 3 "$PGDATA/pg_hba.conf"'], { quiet: true });
    check(/host\s+all\s+all\s+all\s+scram-sha-256/.test(hba.stdout), "PostgreSQL asks other hosts for passwords");

    // The certificate is checked above against Caddy's own authority; Node's fetch, which the API
    // helpers use, cannot be given one, so from here it does not check it (as curl -k).
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    const bookingRef = await timedAsync("a ticket bought through Caddy", () =>
      buyTicket(siteUrl, staff, {
        name: "Compose Quiz Night",
        description: "Eight rounds of questions, asked behind Caddy.",
      }),
    );
    const before = await readBooking(siteUrl, staff, bookingRef);
    check(before.status === "paid" && before.quantity === 2, `booking ${bookingRef} is paid, for 2 tickets`);
    await timedAsync("confirmation e-mail received", async () => {
      const deadline = performance.now() + 60_000;
      while (smtp.sentTo("amina@example.org").length === 0 && performance.now() < deadline) await sleep(500);
    });
    const mail = smtp.sentTo("amina@example.org")[0];
    check(
      mail && (mail.text ?? "").includes(bookingRef),
      `the confirmation e-mail, naming ${bookingRef}, reached the SMTP server in SMTP_URL`,
    );

    const backup = timed("npm run backup in the site", () =>
      podman(
        [
          "exec",
          container("site"),
          "npm",
          "run",
          "--silent",
          "backup",
          "--",
          "--to",
          "/backups/compose-test.backup.gz",
        ],
        { quiet: true, mayFail: true },
      ),
    );
    check(backup.status === 0, `npm run backup ran in ${container("site")}: ${backup.stdout.trim().split("\n")[0]}`);
    const backupFile = path.join(volumePath("backups"), "compose-test.backup.gz");
    check(
      fs.existsSync(backupFile) && fs.statSync(backupFile).size > 0,
      `the backup is in the backups volume (${volume("backups")}, ${fs.statSync(backupFile).size} bytes)`,
    );

    // The site's log through `down`, to see how long it took to stop after SIGTERM (one run here
    // once took 28 s of down's 30, another 0.4 s).
    const siteLog = spawn("podman", ["logs", "--follow", "--timestamps", container("site")], {
      env: podmanEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let siteLogText = "";
    siteLog.stdout.on("data", (chunk: Buffer) => (siteLogText += String(chunk)));
    const siteLogEnded = new Promise((resolve) => siteLog.once("close", resolve));
    await sleep(500);
    timed("down (volumes kept)", () => compose(["down", "--timeout", "30"], env, override));
    await Promise.race([siteLogEnded, sleep(5_000)]);
    siteLog.kill();
    const at = (text: string) => {
      const line = siteLogText.split("\n").find((candidate) => candidate.includes(text));
      return line ? Date.parse(line.split(" ")[0]!.replace(/(\.\d{3})\d*Z$/, "$1Z")) : undefined;
    };
    const [sigterm, stopped] = [at("SIGTERM received"), at("Stopped cleanly")];
    check(
      sigterm !== undefined && stopped !== undefined,
      `the site stopped cleanly on down's SIGTERM, in ${sigterm && stopped ? ((stopped - sigterm) / 1000).toFixed(1) : "?"} s` +
        (sigterm && stopped ? "" : `:\n${siteLogText.split("\n").slice(-15).join("\n")}`),
    );
    const left = podman(["ps", "--all", "--quiet", "--filter", `label=io.podman.compose.project=${project}`], {
      quiet: true,
    }).stdout.trim();
    check(left === "", "down removed the three containers");
    for (const name of ["postgres", "backups", "caddy-data"]) {
      check(
        podman(["volume", "exists", volume(name)], { quiet: true, mayFail: true }).status === 0,
        `the volume ${volume(name)} is kept`,
      );
    }

    await timedAsync("up -d again, until healthy over HTTPS", async () => {
      composeUp(env, override);
      await waitForStack(() => authority);
    });
    const after = await readBooking(siteUrl, staff, bookingRef);
    check(
      after.status === "paid" && after.quantity === 2 && after.email === "amina@example.org",
      `after down and up, booking ${bookingRef} is there, paid, for 2 tickets`,
    );
    check(fs.existsSync(backupFile), "the backup is still in its volume");
    check(
      (await httpsStatus(`${siteUrl}/readyz`, authority)) === 200,
      "Caddy serves the same authority's certificate (its data volume kept)",
    );

    if (!keep) {
      timed("down -v", () => compose(["down", "--volumes", "--timeout", "30"], env, override));
      removed = true;
      const volumes = podman(["volume", "ls", "--quiet", "--filter", `label=io.podman.compose.project=${project}`], {
        quiet: true,
      }).stdout.trim();
      check(volumes === "", "down -v removed the project's volumes");
    }
    timings.push(["the whole test", (performance.now() - started) / 1000]);
    printTimings();
    console.log("\nThe compose test passed.");
  } finally {
    await smtp.stop();
    if (keep) {
      console.log(`\nKept: the project ${project} (podman-compose -p ${project} down -v to remove it).`);
    } else if (!removed) {
      compose(["down", "--volumes", "--timeout", "10"], env, override, true);
      // Volumes podman-compose leaves when the containers were never made.
      for (const name of ["data", "backups", "postgres", "caddy-data", "caddy-config"]) {
        podman(["volume", "rm", "--force", volume(name)], { quiet: true, mayFail: true });
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`\nThe compose test failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
