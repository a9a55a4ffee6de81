import { spawn, type ChildProcess } from "node:child_process";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { preparedSiteDataDir } from "./databases";

/** The staff account every test site starts with. */
export const staffAccount = { email: "staff@example.org", password: "a long staff password" };

export interface RunningSite {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Sends SIGTERM and waits for the process to exit; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * The V8 flags `npm start` gives the production process (package.json: a smaller young generation
 * and an old one that grows by a tenth, docs/performance.md), so that tests and the benchmark run
 * the same process visitors get.
 */
export const productionNodeFlags: string[] = (() => {
  const start = (JSON.parse(fsSync.readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts
    .start;
  const flags = /exec node ((?:--\S+ )*)build\/server\/index\.js/.exec(start)?.[1];
  if (flags === undefined) {
    throw new Error(
      "package.json's start script no longer ends `exec node [flags] build/server/index.js`: follow it here.",
    );
  }
  return flags.split(" ").filter(Boolean);
})();

/**
 * The one V8 flag the test suite's servers add to `npm start`'s: WebAssembly compiled by V8's
 * baseline compiler alone, never compiled again by the optimizing one. The embedded database is
 * 10 MB of WebAssembly. A process that lives for hours earns back the optimizing compiler's work; a
 * test's server lives for seconds. With this flag its start costs 1.6 s of CPU instead of 2.4 s,
 * and 15 paid orders after it a quarter less
 * (docs/decisions/049-test-processes-compile-webassembly-once.md). What the site does is the same
 * under either compiler. The benchmark starts the site exactly as `npm start` does, without it.
 */
export const testNodeFlags = ["--liftoff-only"];

/**
 * Starts the production build as `npm start` would (after its build step: `node
 * build/server/index.js`), on a free port with a
 * fresh data folder, and waits until it says it is listening. The fresh folder holds a copy of an
 * embedded database with every migration applied (`newSiteDataDir`), as the site's first start
 * would leave it; a DATA_DIR given is used as it is.
 */
export async function startSiteProcess(
  env: Record<string, string> = {},
  /** More options for node, after `npm start`'s: the suite's (`testNodeFlags`), or the benchmark's (none, or a CPU profile). */
  nodeFlags: string[] = testNodeFlags,
): Promise<RunningSite> {
  const dataDir = env.DATA_DIR ?? (await newSiteDataDir());
  const child = spawn(process.execPath, [...productionNodeFlags, ...nodeFlags, "build/server/index.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // Tests make the events they need, through the staff API, as the staff account below.
      SAMPLE_EVENTS: "false",
      ADMIN_EMAIL: staffAccount.email,
      ADMIN_PASSWORD: staffAccount.password,
      // A test site takes test cards, on PostgreSQL too, unless it is given Stripe keys.
      ...(!env.STRIPE_SECRET_KEY && { DEMO_PAYMENTS: "true" }),
      // Each test names its visitor's address as one proxy would (tests/support/visitors.ts).
      TRUST_PROXY: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        child.stdout.off("data", onData);
        listening = true;
        resolve(match[1].replace("localhost", "127.0.0.1"));
      }
    };
    child.stdout.on("data", onData);
    void exited.then(async (code) => {
      if (listening) return;
      // A site that never listened gets no stop() to remove the folder made for it here, which
      // since decision 039 is in memory.
      if (!env.DATA_DIR) await fs.rm(dataDir, { recursive: true, force: true });
      reject(new Error(`The site exited with code ${code} before listening:\n${output}`));
    });
  });

  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      if (!env.DATA_DIR) await fs.rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * A new data folder for a site, holding a copy of an embedded database with every migration
 * applied, made once per set of migrations (tests/support/databases.ts): migrating from empty took
 * a good part of each test server's start. The caller removes the folder.
 */
export async function newSiteDataDir(): Promise<string> {
  const prepared = await preparedSiteDataDir();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-site-"));
  copyFolder(prepared, dataDir);
  return dataDir;
}

/**
 * Copies a folder of folders and plain files (a data folder) into an existing one, once per test
 * server. fs.promises.cp makes several calls per file through the thread pool: on the two-core
 * machine it took 0.23-0.35 s of CPU for the 1,100 files to /dev/shm (0.9-1.1 s to the disk), this
 * 0.04-0.06 s (docs/decisions/039-a-faster-suite-on-two-cores.md).
 */
function copyFolder(from: string, to: string) {
  for (const entry of fsSync.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fsSync.mkdirSync(target);
      copyFolder(source, target);
    } else if (entry.isFile()) {
      fsSync.copyFileSync(source, target);
    } else {
      throw new Error(`${source}: not a folder or a plain file, so not copied`);
    }
  }
}
