import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import type { Page } from "@playwright/test";
import { expect, test as siteTest } from "../support/fixtures";
import { startSiteProcess, staffAccount, type RunningSite } from "../support/site-process";

// The site behind Caddy, as on a small server (deploy/server/Caddyfile, docs/operations.md): HTTPS
// on loopback with Caddy's own certificate authority (`tls internal`), TRUST_PROXY=1 and PUBLIC_URL
// the https address. The site must see its visitors as Caddy saw them: over https, from their own
// address, whatever X-Forwarded-For they send.

const caddy = spawnSync("sh", ["-c", "command -v caddy"], { encoding: "utf8" }).stdout.trim();

interface BehindCaddy {
  /** https://localhost:<port>, Caddy's address and the site's PUBLIC_URL. */
  url: string;
  /** The same Caddy, reached at another loopback address: another visitor, and a Host that is not PUBLIC_URL's. */
  otherUrl: string;
  site: RunningSite;
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

/** Whether Caddy completes a TLS handshake at this address yet (its certificates are made as it starts). */
function handshakes(host: string, port: number, servername?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host, port, servername, rejectUnauthorized: false }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function startCaddy(sitePort: number, httpsPort: number, folder: string): Promise<ChildProcess> {
  const config = path.join(folder, "Caddyfile");
  // A high port for plain HTTP too: Caddy listens on it even with its redirects off.
  const httpPort = await freePort();
  await fs.writeFile(
    config,
    `{
	admin off
	auto_https disable_redirects
	skip_install_trust
	http_port ${httpPort}
	https_port ${httpsPort}
	storage file_system {
		root ${path.join(folder, "data")}
	}
}

localhost:${httpsPort}, 127.0.0.2:${httpsPort} {
	tls internal
	reverse_proxy 127.0.0.1:${sitePort} {
		transport http {
			keepalive 60s
		}
	}
}
`,
  );
  const child = spawn(caddy, ["run", "--adapter", "caddyfile", "--config", config], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: folder,
      XDG_DATA_HOME: path.join(folder, "data"),
      XDG_CONFIG_HOME: path.join(folder, "config"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`Caddy exited with code ${child.exitCode}:\n${output}`);
        return (await handshakes("127.0.0.1", httpsPort, "localhost")) && (await handshakes("127.0.0.2", httpsPort));
      },
      { message: "Caddy answers over TLS", timeout: 20_000 },
    )
    .toBe(true);
  return child;
}

const test = siteTest.extend<{ behindCaddy: BehindCaddy }>({
  behindCaddy: async ({}, use) => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-caddy-"));
    const httpsPort = await freePort();
    const url = `https://localhost:${httpsPort}`;
    const site = await startSiteProcess({ PUBLIC_URL: url, TRUST_PROXY: "1" });
    const proxy = await startCaddy(Number(new URL(site.url).port), httpsPort, folder).catch(async (error: unknown) => {
      await site.stop();
      throw error;
    });
    await use({ url, otherUrl: `https://127.0.0.2:${httpsPort}`, site });
    const exited = new Promise((resolve) => proxy.once("exit", resolve));
    proxy.kill("SIGTERM");
    await exited;
    await site.stop();
    await fs.rm(folder, { recursive: true, force: true });
  },
  baseURL: async ({ behindCaddy }, use) => use(behindCaddy.url),
});
test.use({ ignoreHTTPSErrors: true });

/** Volunteer sign-ups sent by the page's own script: each answer's status. */
function signUps(page: Page, emails: string[]) {
  return page.evaluate(async (emails) => {
    const statuses: number[] = [];
    for (const email of emails) {
      const response = await fetch("/api/volunteers", {
        method: "POST",
        // A visitor who claims to be someone else each time: Caddy replaces the claim.
        headers: { "Content-Type": "application/json", "X-Forwarded-For": `203.0.113.${statuses.length + 1}` },
        body: JSON.stringify({ name: "Neema Mollel", email, reason: "I can help at the quiz nights." }),
      });
      statuses.push(response.status);
    }
    return statuses;
  }, emails);
}

test.describe("the site behind Caddy", () => {
  test.skip(!caddy, "Caddy is not installed (apt-get install -y caddy; .ci/run installs it)");

  test("serves over HTTPS, sees its visitors as https and by the address Caddy saw", async ({
    page,
    context,
    behindCaddy,
  }) => {
    // The home page, over HTTPS, with the site's production headers.
    const home = await page.goto("/");
    expect(home?.status()).toBe(200);
    expect(page.url()).toBe(`${behindCaddy.url}/`);
    expect(home?.headers()["strict-transport-security"]).toContain("max-age=");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    // A member of staff signs in: the session cookie is Secure, and the staff pages open with it.
    const signedIn = await page.request.post("/api/admin/session", { data: staffAccount });
    expect(signedIn.status()).toBe(204);
    const cookies = signedIn.headersArray().filter((header) => header.name.toLowerCase() === "set-cookie");
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.value).toMatch(/;\s*Secure/i);
    await page.goto("/admin");
    await expect(page).toHaveURL(`${behindCaddy.url}/admin`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    // Another visitor, at another loopback address and a Host that is not PUBLIC_URL's. The
    // browser's own POSTs carry that page's origin, https://127.0.0.2:<port>: the site takes them
    // as its own only because it believes Caddy's X-Forwarded-Proto (https) and passed-on Host.
    const other = await context.newPage();
    expect((await other.goto(`${behindCaddy.otherUrl}/volunteering`))?.status()).toBe(200);
    const tooMany = await signUps(
      other,
      [1, 2, 3, 4, 5, 6].map((n) => `neema.${n}@example.org`),
    );
    // Five sign-ups an address in a quarter of an hour: the sixth is refused, whatever address
    // each request claimed in its own X-Forwarded-For.
    expect(tooMany).toEqual([201, 201, 201, 201, 201, 429]);
    // The first visitor, at 127.0.0.1 (Caddy's X-Forwarded-For), is not that address: the site
    // counts by the address Caddy saw, not by its connection, which always comes from Caddy.
    expect(await signUps(page, ["baraka@example.org"])).toEqual([201]);
    await other.close();
  });
});
