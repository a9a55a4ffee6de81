import net from "node:net";

/**
 * A TCP proxy on loopback in front of a server (PostgreSQL), which a test can cut and restore as
 * if the server stopped and came back, without stopping the server that other tests share.
 * - `cut()`: every connection through it is destroyed, and new ones are reset as they arrive.
 * - `stall()`: connections are accepted and kept, but nothing passes either way (a network that
 *   drops packets): only a timeout ends a wait.
 * - `restore()`: new connections pass again.
 */
export class TcpProxy {
  private mode: "open" | "cut" | "stalled" = "open";
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const proxy = new TcpProxy(server, (server.address() as net.AddressInfo).port);
    server.on("connection", (client: net.Socket) => proxy.accept(client, target));
    return proxy;
  }

  /** `url` (a postgres:// URL) with its host and port replaced by the proxy's. */
  through(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  private accept(client: net.Socket, target: { host: string; port: number }) {
    if (this.mode === "cut") {
      client.resetAndDestroy();
      return;
    }
    this.track(client);
    if (this.mode === "stalled") return;
    const upstream = net.connect(target.port, target.host);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  }

  private track(socket: net.Socket) {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }

  /** The server is gone: every connection is destroyed, and new ones are refused. */
  cut() {
    this.mode = "cut";
    for (const socket of this.sockets) socket.destroy();
  }

  /** The network drops everything: open connections stop passing bytes, new ones are accepted and hang. */
  stall() {
    this.mode = "stalled";
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  /** The server is back: new connections pass (the stalled ones are ended). */
  restore() {
    if (this.mode === "stalled") for (const socket of this.sockets) socket.destroy();
    this.mode = "open";
  }

  async close() {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
