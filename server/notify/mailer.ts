import nodemailer, { type SendMailOptions } from 'nodemailer';
import { EMAIL_FOOTER, PRODUCT_NAME } from '../../domain/notify-events.ts';
import type { EmailConfig } from '../config.ts';

/**
 * Email through SMTP (nodemailer): one pooled transport per app, and the one place a message is put together.
 * The delivery worker decides what to send and when; this only sends one message and says what came of it.
 */

/** A message as composeEmail makes it: nodemailer's options with the fields every mail of ours has. */
export type OutgoingMail = SendMailOptions & { to: string; subject: string; messageId: string; text: string; html: string };

/**
 * What came of one send. retry: worth trying again later (the network, a timeout, an SMTP 4xx such as 421 or 451);
 * failed: sending it again gives the same answer (an SMTP 5xx such as 550 "no such user", a malformed message).
 * `status` is the SMTP reply code when the server gave one.
 */
export type MailOutcome = { outcome: 'sent' } | { outcome: 'retry'; error: string; status?: number } | { outcome: 'failed'; error: string; status?: number };

export interface Mailer {
  send(mail: OutgoingMail): Promise<MailOutcome>;
  /** Closes the pooled connections (a send in progress finishes first). */
  close(): Promise<void>;
}

/** How long to wait for the SMTP server: the connection, then any one read or write on it. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/**
 * The app's mailer, or null when email is off (EMAIL=off, or a local server without SMTP_URL): a caller checks
 * for null and sends nothing, rather than queueing mail that cannot go.
 */
export function createMailer(email: EmailConfig): Mailer | null {
  if (!email.enabled || !email.smtpUrl) return null;
  const transport = nodemailer.createTransport(
    {
      url: email.smtpUrl,
      pool: true,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: CONNECTION_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    },
    { from: email.from },
  );
  return {
    async send(mail) {
      try {
        await transport.sendMail(mail);
        return { outcome: 'sent' };
      } catch (err) {
        return outcomeOf(err);
      }
    },
    async close() {
      transport.close();
    },
  };
}

/** nodemailer's errors carry the SMTP reply code (responseCode) when the server answered, and a code of their own. */
function outcomeOf(err: unknown): MailOutcome {
  const e = (err ?? {}) as { message?: string; responseCode?: number; code?: string };
  const error = String(e.message ?? err).slice(0, 500);
  const status = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  if (status !== undefined && status >= 500) return { outcome: 'failed', error, status };
  if (status !== undefined && status >= 400) return { outcome: 'retry', error, status };
  // No reply code: a message or envelope nodemailer itself refuses will be refused again; anything else is the
  // connection (refused, reset, timed out, TLS, DNS) and may work later.
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return { outcome: 'failed', error };
  return { outcome: 'retry', error };
}

export interface EmailContent {
  to: string;
  /** The delivery's id: the Message-ID is `<deliveryId@host>`, so a resent copy is recognisably the same mail. */
  deliveryId: string;
  subject: string;
  paragraphs: string[];
  /** The screen the mail is about, on PUBLIC_URL. */
  link: { text: string; url: string };
  /** One-click unsubscribe (RFC 8058) for mail the person may turn off; essential mail passes none. */
  unsubscribeUrl?: string;
  /** PUBLIC_URL's host name, for the Message-ID. */
  host: string;
}

/**
 * A plain-text and a simple HTML body with the same words: the product name, the paragraphs, a link to the screen
 * and the footer. Nothing is taken as HTML: every text is escaped. With `unsubscribeUrl`, the RFC 8058 headers let
 * a mail provider offer "Unsubscribe" that works in one click without signing in.
 */
export function composeEmail(content: EmailContent): OutgoingMail {
  const { to, deliveryId, subject, paragraphs, link, unsubscribeUrl, host } = content;
  const stop = unsubscribeUrl ? `To stop these emails: ${unsubscribeUrl}` : null;
  const text = [PRODUCT_NAME, ...paragraphs, `${link.text}: ${link.url}`, '-- ', EMAIL_FOOTER, ...(stop ? [stop] : [])].join('\n\n') + '\n';
  const p = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${s}</p>`;
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1a1d23;font-size:16px;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">',
    p(escapeHtml(PRODUCT_NAME), 'font-weight:bold;font-size:18px'),
    ...paragraphs.map((para) => p(escapeHtml(para))),
    p(
      `<a href="${escapeHtml(link.url)}" style="display:inline-block;background:#1f5fd1;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">${escapeHtml(link.text)}</a>`,
      'margin:24px 0',
    ),
    p(escapeHtml(EMAIL_FOOTER), 'font-size:13px;color:#5a6270'),
    ...(unsubscribeUrl ? [p(`<a href="${escapeHtml(unsubscribeUrl)}" style="color:#5a6270">Unsubscribe from these emails</a>`, 'font-size:13px;color:#5a6270')] : []),
    '</div></body></html>',
  ].join('\n');
  return {
    to,
    subject,
    text,
    html,
    messageId: `<${deliveryId}@${host}>`,
    ...(unsubscribeUrl ? { headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
  };
}

/** The host name a Message-ID names (`<deliveryId@host>`): the portal's own, from PUBLIC_URL. */
export function messageIdHost(email: Pick<EmailConfig, 'publicUrl'>): string {
  return new URL(email.publicUrl).hostname;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
