// The local stack's mail inbox: a real SMTP server (smtp-server) that keeps every mail it receives in memory, parsed
// by mailparser, and a small web page to read them. `npm start` runs it in-process and points the API server's
// SMTP_URL at it, so a newcomer sees every mail the portal sends; the e2e stacks run one each and read
// GET /api/messages; the server tests send to one. It accepts any sender and recipient without authentication and
// relays nothing: it is for loopback only.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One received mail, as the page and GET /api/messages show it. */
export interface InboxMessage {
  /** The inbox's own number for it, counting from 1 since the inbox started. */
  id: string;
  receivedAt: string;
  /** The SMTP envelope: who the sending server said it is from and to. */
  envelope: { from: string | null; to: string[] };
  from: string;
  to: string;
  subject: string;
  date: string | null;
  messageId: string | null;
  text: string;
  html: string | null;
  /**
   * Every header as sent, by lower-case name (unfolded; several of one name joined by ", "), read from the raw
   * header lines: `list-unsubscribe-post` and the like are exactly what a mail provider sees.
   */
  headers: Record<string, string>;
}

export interface MailInbox {
  /** Where to send: `smtp://<host>:<port>` (no TLS, no authentication). */
  smtpUrl: string;
  /** The inbox page. */
  url: string;
  smtpPort: number;
  httpPort: number;
  /** What arrived, oldest first (at most MAX_MESSAGES: the oldest go first). */
  messages(): InboxMessage[];
  /** The first message, already here or still to come, that satisfies `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (message: InboxMessage) => boolean, timeoutMs?: number): Promise<InboxMessage>;
  clear(): void;
  close(): Promise<void>;
}

/** Kept in memory: a local inbox is read by a person or a test, not archived. */
export const MAX_MESSAGES = 500;
/** A mail larger than this is refused (552), as a real server would. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Starts the SMTP server and the page on `host` (127.0.0.1 by default). Port 0 takes a free port; a port in use
 * fails with a message naming it.
 */
export async function startMailInbox(opts: { smtpPort: number; httpPort: number; host?: string }): Promise<MailInbox> {
  const host = opts.host ?? '127.0.0.1';
  const kept: InboxMessage[] = [];
  const arrivals = new EventEmitter();
  let next = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Any user name and password is welcome, so an SMTP_URL with credentials works here too.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anyone' });
    },
    size: MAX_MESSAGE_BYTES,
    banner: 'Recovery portal local inbox',
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error(`Message exceeds the ${MAX_MESSAGE_BYTES} byte limit`), { responseCode: 552 }));
            return;
          }
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          const message = toInboxMessage(String(next++), parsed, envelope);
          kept.push(message);
          if (kept.length > MAX_MESSAGES) kept.splice(0, kept.length - MAX_MESSAGES);
          arrivals.emit('message', message);
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  // A client that goes away mid-session is its own affair; the inbox carries on.
  smtp.on('error', () => undefined);

  const smtpPort = await listen(smtp.server, opts.smtpPort, host, 'SMTP server of the mail inbox');
  const web = createServer((req, res) => {
    try {
      handlePage(req, res, kept, () => kept.splice(0));
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(String(err));
    }
  });
  let httpPort: number;
  try {
    httpPort = await listen(web, opts.httpPort, host, 'mail inbox page');
  } catch (err) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw err;
  }
  const shownHost = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;

  return {
    smtpUrl: `smtp://${host === '0.0.0.0' ? '127.0.0.1' : host}:${smtpPort}`,
    url: `http://${shownHost}:${httpPort}`,
    smtpPort,
    httpPort,
    messages: () => [...kept],
    waitFor(predicate, timeoutMs = 10_000) {
      const found = kept.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onMessage = (message: InboxMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          arrivals.off('message', onMessage);
          resolve(message);
        };
        const timer = setTimeout(() => {
          arrivals.off('message', onMessage);
          reject(new Error(`no such mail within ${timeoutMs} ms; the inbox holds: ${kept.map((m) => `"${m.subject}" to ${m.to}`).join(', ') || 'nothing'}`));
        }, timeoutMs);
        arrivals.on('message', onMessage);
      });
    },
    clear: () => void kept.splice(0),
    async close() {
      web.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => web.close(() => resolve())), new Promise<void>((resolve) => smtp.close(() => resolve()))]);
    },
  };
}

function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `port ${port} (${what}) is already in use: stop the other process or choose another port` : `cannot start the ${what} on port ${port}: ${err.message}`));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function addressText(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ');
}

function toInboxMessage(id: string, parsed: ParsedMail, envelope: InboxMessage['envelope']): InboxMessage {
  const headers: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines) {
    const value = line
      .replace(/\r?\n[ \t]+/g, ' ')
      .replace(/^[^:]*:\s?/, '')
      .trim();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return {
    id,
    receivedAt: new Date().toISOString(),
    envelope,
    from: addressText(parsed.from),
    to: addressText(parsed.to),
    subject: parsed.subject ?? '',
    date: parsed.date ? parsed.date.toISOString() : null,
    messageId: parsed.messageId ?? null,
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : null,
    headers,
  };
}

// ---- the page ----

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The page's own policy: no script anywhere, the mail's HTML in a sandboxed frame, forms may post to the portal. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:; frame-src 'self'; form-action http: https:",
  'x-content-type-options': 'nosniff',
};

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:16px 24px;color:#1a1d23}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:6px 8px;border-bottom:1px solid #ddd;vertical-align:top}
a{color:#1f5fd1}iframe{width:100%;height:60vh;border:1px solid #ccc;background:#fff}pre{white-space:pre-wrap;background:#f4f5f7;padding:12px}dt{font-weight:bold}dd{margin:0 0 8px;word-break:break-all}
button{padding:8px 14px;cursor:pointer}</style></head><body>${body}</body></html>`;
}

function handlePage(req: IncomingMessage, res: ServerResponse, kept: InboxMessage[], clear: () => void) {
  const url = new URL(req.url ?? '/', 'http://inbox');
  if (url.pathname === '/api/messages') {
    if (req.method === 'DELETE') {
      clear();
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify({ data: kept }));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/clear') {
    clear();
    res.writeHead(303, { location: '/' }).end();
    return;
  }
  if (url.pathname === '/') {
    const rows = [...kept]
      .reverse()
      .map((m) => `<tr><td><a href="/m/${m.id}">${esc(m.subject || '(no subject)')}</a></td><td>${esc(m.from)}</td><td>${esc(m.to)}</td><td>${esc(m.date ?? m.receivedAt)}</td></tr>`)
      .join('');
    const body = `<h1>Local mail inbox</h1><p>Every mail the portal sends while it runs locally arrives here (kept in memory, at most ${MAX_MESSAGES}; newest first).</p>
<form method="post" action="/clear"><button>Delete all</button></form>
<table><thead><tr><th>Subject</th><th>From</th><th>To</th><th>Date</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No mail yet.</td></tr>'}</tbody></table>`;
    res.writeHead(200, PAGE_HEADERS).end(page('Local mail inbox', body));
    return;
  }
  const match = /^\/m\/(\d+)$/.exec(url.pathname);
  const message = match ? kept.find((m) => m.id === match[1]) : undefined;
  if (!message) {
    res.writeHead(404, PAGE_HEADERS).end(page('Not found', '<p>No such mail (the inbox keeps mail only while it runs). <a href="/">All mail</a></p>'));
    return;
  }
  const unsubscribe = /<(https?:[^>]+)>/.exec(message.headers['list-unsubscribe'] ?? '')?.[1];
  const oneClick = message.headers['list-unsubscribe-post'] === 'List-Unsubscribe=One-Click';
  const listHeaders = unsubscribe
    ? `<dt>List-Unsubscribe</dt><dd>${esc(message.headers['list-unsubscribe'])}</dd><dt>List-Unsubscribe-Post</dt><dd>${esc(message.headers['list-unsubscribe-post'] ?? '(none)')}</dd>
${oneClick ? `<dd><form method="post" action="${esc(unsubscribe)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button>Unsubscribe (one click, as a mail provider would)</button></form></dd>` : ''}`
    : '<dt>List-Unsubscribe</dt><dd>none (mail that cannot be turned off)</dd>';
  const body = `<p><a href="/">← All mail</a></p><h1>${esc(message.subject || '(no subject)')}</h1>
<dl><dt>From</dt><dd>${esc(message.from)}</dd><dt>To</dt><dd>${esc(message.to)}</dd><dt>Date</dt><dd>${esc(message.date ?? message.receivedAt)}</dd>
<dt>Message-ID</dt><dd>${esc(message.messageId ?? '(none)')}</dd>${listHeaders}</dl>
${message.html ? `<h2>HTML</h2><iframe sandbox title="The mail's HTML" srcdoc="${esc(message.html)}"></iframe>` : ''}
<h2>Text</h2><pre>${esc(message.text)}</pre>`;
  res.writeHead(200, PAGE_HEADERS).end(page(message.subject, body));
}
