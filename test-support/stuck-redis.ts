import { createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A Redis that accepts connections and answers the handshake (the client's
 * ready check: INFO, and CLIENT / SELECT / HELLO if asked), then nothing:
 * every other command waits forever, as on a Redis stuck in a long script.
 */
export async function startStuckRedis(): Promise<{
  url: string;
  heldCommands: () => number;
  stop: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let held = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (data) => {
      // One packet may carry several commands: each RESP array starts with '*'.
      for (const command of data.toString('latin1').split(/(?=\*\d+\r\n)/)) {
        const name = command.split('\r\n')[2]?.toUpperCase();
        if (name === 'INFO')
          socket.write(bulk('# Server\r\nredis_version:7.0.15\r\nloading:0\r\n'));
        else if (name === 'CLIENT' || name === 'SELECT') socket.write('+OK\r\n');
        else if (name === 'HELLO') socket.write('-ERR unknown command\r\n');
        else if (name) held += 1;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    heldCommands: () => held,
    stop: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
