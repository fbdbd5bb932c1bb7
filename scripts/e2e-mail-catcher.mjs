// The mailbox of an end-to-end run: an SMTP server the app sends to (SMTP_URL) and a small
// JSON endpoint the tests read it from (tests/e2e/support/mail.ts), both on 127.0.0.1.
//
//   SMTP  smtp://127.0.0.1:<MAIL_SMTP_PORT>     (no auth, no TLS)
//   HTTP  GET /messages?to=<address>  -> [{ id, to, from, receivedAt, raw }]  (oldest first)
//         GET /healthz                -> ok   (Playwright waits on it)
//
// Ports come from the environment (playwright.config.ts derives them from E2E_PORT so parallel
// runs do not collide). Messages live in memory for the run; bodies are parsed by the tests.
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.env.MAIL_SMTP_PORT);
const httpPort = Number(process.env.MAIL_HTTP_PORT);
if (!smtpPort || !httpPort) {
  console.error('MAIL_SMTP_PORT and MAIL_HTTP_PORT are required');
  process.exit(2);
}

/** @type {{ id: number; to: string; from: string; receivedAt: string; raw: string }[]} */
const messages = [];
const MAX_MESSAGES = 10_000;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  size: 1024 * 1024,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      for (const rcpt of session.envelope.rcptTo) {
        messages.push({ id: messages.length + 1, to: rcpt.address.toLowerCase(), from, receivedAt: new Date().toISOString(), raw });
      }
      if (messages.length > MAX_MESSAGES) messages.splice(0, messages.length - MAX_MESSAGES);
      callback();
    });
  },
});
smtp.on('error', (err) => console.error(`mail catcher (smtp): ${err.message}`));

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (req.method === 'GET' && url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => m.to === to) : messages;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(list));
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
});

await new Promise((resolve, reject) => {
  smtp.once('error', reject);
  smtp.listen(smtpPort, '127.0.0.1', resolve);
});
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(httpPort, '127.0.0.1', resolve);
});
console.log(`mail catcher: SMTP on 127.0.0.1:${smtpPort}, messages on http://127.0.0.1:${httpPort}/messages`);

const stop = () => {
  server.close();
  smtp.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
