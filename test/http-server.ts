import { createServer, type RequestListener, type Server } from 'node:http';

export interface LocalHttpServer {
  server: Server;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** A plain HTTP server on a free loopback port, for fakes of the services the code calls out to. */
export async function startHttpServer(handler: RequestListener): Promise<LocalHttpServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
