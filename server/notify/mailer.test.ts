// Mail through a real SMTP conversation: nodemailer's pooled transport (createMailer) sends what composeEmail makes
// to the local inbox (scripts/mail-inbox.ts: smtp-server + mailparser), and the test reads back what a mail provider
// would see. SMTP servers that refuse (451, 550) or are not there show what the worker is told to do next.
import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_FOOTER, PRODUCT_NAME } from '../../domain/notify-events.ts';
import { startMailInbox, type MailInbox } from '../../scripts/mail-inbox.ts';
import type { EmailConfig } from '../config.ts';
import { createTestApp } from '../test-helper.ts';
import { composeEmail, createMailer, type Mailer, messageIdHost } from './mailer.ts';

const emailConfig = (smtpUrl: string): EmailConfig => ({ enabled: true, smtpUrl, from: '"Recovery" <no-reply@localhost>', delaySeconds: 0, publicUrl: 'http://localhost:8080' });

const personal = (overrides: Partial<Parameters<typeof composeEmail>[0]> = {}) =>
  composeEmail({
    to: 'client@test.example',
    deliveryId: '0b5d3f7e-6a52-4c1e-9d1f-3f6c2a9e8b01',
    subject: `${PRODUCT_NAME}: Support replied to your message`,
    paragraphs: ['Support replied to your message.', 'Open the portal to read it.'],
    link: { text: 'Open the portal', url: 'http://localhost:8080/contact-requests?thread=7f1c' },
    unsubscribeUrl: 'http://localhost:8080/api/unsubscribe/v1.abc.def',
    host: 'localhost',
    ...overrides,
  });

describe('composeEmail', () => {
  it('writes the same words as text and as escaped HTML, with the Message-ID of the delivery', () => {
    const mail = personal({ paragraphs: ['A <b>bold</b> & "quoted" claim'] });
    expect(mail.messageId).toBe('<0b5d3f7e-6a52-4c1e-9d1f-3f6c2a9e8b01@localhost>');
    expect(mail.text).toContain('A <b>bold</b> & "quoted" claim');
    expect(mail.text).toContain('Open the portal: http://localhost:8080/contact-requests?thread=7f1c');
    expect(mail.text).toContain(EMAIL_FOOTER);
    expect(mail.html).toContain('A &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; claim');
    expect(mail.html).not.toContain('<b>bold</b>');
    expect(mail.html).toContain('href="http://localhost:8080/contact-requests?thread=7f1c"');
    expect(mail.headers).toEqual({ 'List-Unsubscribe': '<http://localhost:8080/api/unsubscribe/v1.abc.def>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it("names the portal's host in the Message-ID", () => {
    expect(messageIdHost({ publicUrl: 'https://portal.acme.example' })).toBe('portal.acme.example');
    expect(messageIdHost({ publicUrl: 'http://localhost:8080' })).toBe('localhost');
  });

  it('gives essential mail no unsubscribe headers and no unsubscribe link', () => {
    const mail = personal({ unsubscribeUrl: undefined });
    expect(mail.headers).toBeUndefined();
    expect(mail.text).not.toMatch(/unsubscribe|stop these emails/i);
    expect(mail.html).not.toMatch(/unsubscribe/i);
  });
});

describe('createMailer', () => {
  let inbox: MailInbox;
  let mailer: Mailer;

  beforeAll(async () => {
    inbox = await startMailInbox({ smtpPort: 0, httpPort: 0 });
    mailer = createMailer(emailConfig(inbox.smtpUrl)) ?? expect.unreachable('a mailer');
  });
  afterAll(async () => {
    await mailer?.close();
    await inbox?.close();
  });

  it('is null when email is off', () => {
    expect(createMailer({ ...emailConfig('smtp://127.0.0.1:1'), enabled: false })).toBeNull();
  });

  it('delivers the mail a provider sees: subject (non-Latin intact), text and HTML link, Message-ID and the one-click headers', async () => {
    const subject = `${PRODUCT_NAME}: Поддержка ответила — 支持团队已回复 ✓`;
    const sent = await mailer.send(personal({ subject, to: 'ivan@test.example' }));
    expect(sent).toEqual({ outcome: 'sent' });
    const mail = await inbox.waitFor((m) => m.envelope.to.includes('ivan@test.example'));
    expect(mail.subject).toBe(subject);
    expect(mail.from).toBe('"Recovery" <no-reply@localhost>');
    expect(mail.messageId).toBe('<0b5d3f7e-6a52-4c1e-9d1f-3f6c2a9e8b01@localhost>');
    expect(mail.headers['message-id']).toBe('<0b5d3f7e-6a52-4c1e-9d1f-3f6c2a9e8b01@localhost>');
    expect(mail.headers['list-unsubscribe']).toBe('<http://localhost:8080/api/unsubscribe/v1.abc.def>');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('Open the portal: http://localhost:8080/contact-requests?thread=7f1c');
    expect(mail.html).toContain('href="http://localhost:8080/contact-requests?thread=7f1c"');
  });

  it('sends essential mail without any list header', async () => {
    expect(await mailer.send(personal({ unsubscribeUrl: undefined, to: 'payer@test.example', deliveryId: 'e55e1a11-0000-4000-8000-000000000001' }))).toEqual({ outcome: 'sent' });
    const mail = await inbox.waitFor((m) => m.envelope.to.includes('payer@test.example'));
    expect(mail.messageId).toBe('<e55e1a11-0000-4000-8000-000000000001@localhost>');
    expect(Object.keys(mail.headers).filter((h) => h.startsWith('list-'))).toEqual([]);
  });

  it('shows the mail on the inbox page with its one-click button, lists it in /api/messages, and clears', async () => {
    expect(await mailer.send(personal({ to: 'page@test.example', subject: 'Page <check>' }))).toEqual({ outcome: 'sent' });
    const mail = await inbox.waitFor((m) => m.envelope.to.includes('page@test.example'));
    const list = await (await fetch(inbox.url)).text();
    expect(list).toContain(`href="/m/${mail.id}"`);
    expect(list).toContain('Page &lt;check&gt;');
    const shown = await fetch(`${inbox.url}/m/${mail.id}`);
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await shown.text();
    expect(html).toContain('<form method="post" action="http://localhost:8080/api/unsubscribe/v1.abc.def">');
    expect(html).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(html).toMatch(/<iframe sandbox [^>]*srcdoc="[^"]*&lt;a href=&quot;http:\/\/localhost:8080\/contact-requests/);
    const api = (await (await fetch(`${inbox.url}/api/messages`)).json()) as { data: { id: string; headers: Record<string, string> }[] };
    expect(api.data.find((m) => m.id === mail.id)?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect((await fetch(`${inbox.url}/api/messages`, { method: 'DELETE' })).status).toBe(204);
    expect(inbox.messages()).toEqual([]);
    expect((await fetch(`${inbox.url}/m/${mail.id}`)).status).toBe(404);
  });

  it('names the port when it is taken', async () => {
    await expect(startMailInbox({ smtpPort: inbox.smtpPort, httpPort: 0 })).rejects.toThrow(`port ${inbox.smtpPort} (SMTP server of the mail inbox) is already in use`);
    await expect(startMailInbox({ smtpPort: 0, httpPort: inbox.httpPort })).rejects.toThrow(`port ${inbox.httpPort} (mail inbox page) is already in use`);
  });
});

describe('what a refusal means for the worker', () => {
  /** An SMTP server that refuses every recipient with this reply. */
  async function refusingServer(code: number, message: string) {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error(message), { responseCode: code }));
      },
    });
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
    return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('retries a 451 (try again later) and gives up on a 550 (no such mailbox), with the reply code', async () => {
    for (const [code, outcome] of [
      [451, 'retry'],
      [550, 'failed'],
    ] as const) {
      const server = await refusingServer(code, code === 451 ? 'Greylisted, try again later' : 'No such user here');
      const mailer = createMailer(emailConfig(server.url)) ?? expect.unreachable('a mailer');
      try {
        const result = await mailer.send(personal());
        expect(result, String(code)).toMatchObject({ outcome, status: code });
        expect(result.outcome !== 'sent' && result.error, String(code)).toMatch(code === 451 ? /Greylisted/ : /No such user/);
      } finally {
        await mailer.close();
        await server.close();
      }
    }
  });

  it('retries when no SMTP server answers (connection refused)', async () => {
    // A port that was free a moment ago and that nothing listens on now.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const mailer = createMailer(emailConfig(`smtp://127.0.0.1:${port}`)) ?? expect.unreachable('a mailer');
    try {
      const result = await mailer.send(personal());
      expect(result).toMatchObject({ outcome: 'retry' });
      expect(result.outcome === 'retry' && result.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await mailer.close();
    }
  });
});

describe('app.mailer', () => {
  it('sends through SMTP_URL, and is null without it (a local server of its own sends no mail)', async () => {
    const inbox = await startMailInbox({ smtpPort: 0, httpPort: 0 });
    const withMail = await createTestApp({ env: { SMTP_URL: inbox.smtpUrl, MAIL_FROM: 'portal@test.example' } });
    const without = await createTestApp();
    try {
      expect(without.app.mailer).toBeNull();
      const mailer = withMail.app.mailer ?? expect.unreachable('app.mailer');
      expect(await mailer.send(personal({ to: 'app@test.example' }))).toEqual({ outcome: 'sent' });
      const mail = await inbox.waitFor((m) => m.envelope.to.includes('app@test.example'));
      expect(mail.envelope.from).toBe('portal@test.example');
    } finally {
      await withMail.close();
      await without.close();
      await inbox.close();
    }
  });
});
