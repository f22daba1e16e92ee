import { createSocket, type Socket } from 'node:dgram';
import { dnsQuery } from './address-policy';

/**
 * A DNS server on 127.0.0.1 that answers A queries for `hooks.example.test` with 203.0.113.7,
 * AAAA queries with no record, and never answers names under `blackhole.test`.
 */
async function startDns(): Promise<{ server: string; queries: string[]; close(): Promise<void> }> {
  const queries: string[] = [];
  const socket: Socket = createSocket('udp4');
  socket.on('message', (msg, from) => {
    // The question: labels from byte 12, then type and class.
    const labels: string[] = [];
    let at = 12;
    while (msg[at]! > 0) {
      labels.push(msg.subarray(at + 1, at + 1 + msg[at]!).toString('ascii'));
      at += 1 + msg[at]!;
    }
    const name = labels.join('.');
    const type = msg.readUInt16BE(at + 1);
    queries.push(`${name} ${type}`);
    if (name.endsWith('blackhole.test')) return;
    const question = msg.subarray(12, at + 5);
    const answer =
      type === 1 && name === 'hooks.example.test'
        ? Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 203, 0, 113, 7])
        : Buffer.alloc(0);
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(0x8180, 2); // a response, recursion desired and available, no error
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answer.length > 0 ? 1 : 0, 6);
    socket.send(Buffer.concat([header, question, answer]), from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise((r) => socket.close(() => r())),
  };
}

describe('dnsQuery: the lookup of public webhook hosts (c-ares, cancellable)', () => {
  let dns: Awaited<ReturnType<typeof startDns>>;
  beforeAll(async () => (dns = await startDns()));
  afterAll(() => dns.close());

  it('asks for A and AAAA records and returns the addresses found', async () => {
    await expect(dnsQuery(2000, [dns.server])('hooks.example.test')).resolves.toEqual([
      { address: '203.0.113.7', family: 4 },
    ]);
    expect(dns.queries).toEqual(expect.arrayContaining(['hooks.example.test 1', 'hooks.example.test 28']));
  });

  it('gives up on a name server that never answers, within its deadline', async () => {
    const started = Date.now();
    await expect(dnsQuery(300, [dns.server])('x.blackhole.test')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
