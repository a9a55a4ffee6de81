// Debian's nginx as the yardstick: one worker serving a folder of pages saved from the site,
// each beside its gzip copy (gzip_static), on a loopback port. What the site's own throughput is
// compared with in `npm run bench` (docs/decisions/034-the-benchmark.md).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

export const nginxPath = process.env.NGINX_PATH || "/usr/sbin/nginx";

export interface SavedPage {
  /** The address's path, e.g. "/about" or "/robots.txt". */
  path: string;
  body: Buffer;
}

export interface RunningNginx {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A free loopback port, asked of the system. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The file a page's path is kept in: "/" is index.html, "/about" about.html, "/robots.txt" itself. */
function fileFor(page: string): string {
  if (page === "/") return "index.html";
  const name = page.slice(1);
  return path.extname(name) ? name : `${name}.html`;
}

/** Starts nginx on the pages given, precompressed; resolves once it answers. */
export async function startNginx(pages: SavedPage[]): Promise<RunningNginx> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-bench-nginx-"));
  const www = path.join(dir, "www");
  for (const page of pages) {
    const file = path.join(www, fileFor(page.path));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, page.body);
    await fs.writeFile(`${file}.gz`, zlib.gzipSync(page.body, { level: 9 }));
  }
  // nginx's worker runs as nobody when the master is root: it must be able to read the folder.
  await fs.chmod(dir, 0o755);
  for (const entry of await fs.readdir(www, { recursive: true, withFileTypes: true })) {
    await fs.chmod(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
  await fs.chmod(www, 0o755);
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  const config = `
worker_processes 1;
daemon off;
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  types { text/html html; text/plain txt; }
  default_type text/html;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip_static on;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location / { try_files $uri.html $uri /index.html =404; }
    location = / { try_files /index.html =404; }
  }
}
`;
  const configFile = path.join(dir, "nginx.conf");
  await fs.writeFile(configFile, config);
  const child: ChildProcess = spawn(nginxPath, ["-c", configFile, "-p", dir], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${output}`);
    const ok = await fetch(url + "/")
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) break;
    if (tries > 100) throw new Error(`nginx did not answer at ${url}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
