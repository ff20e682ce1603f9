import net from 'node:net';

/** A TCP proxy between the service and its database that a test can cut (an outage) and restore. */
export interface TcpProxy {
  port: number;
  /** Destroys every open connection and refuses new ones, as a server that went away. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const listen = (port: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: net.Server | null = await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    async restore() {
      server ??= await listen(port);
    },
    close: stop,
  };
}
