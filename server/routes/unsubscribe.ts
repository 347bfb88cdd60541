import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PRODUCT_NAME } from '../../domain/notify-events.ts';
import { ApiError, envelope } from '../../domain/schemas.ts';
import { escapeHtml } from '../notify/mailer.ts';
import { UNSUBSCRIBE_PATH, verifyUnsubscribeToken } from '../notify/unsubscribe-tokens.ts';
import { HttpError } from '../platform/errors.ts';
import { turnEmailOff } from '../services/unsubscribe.ts';

/** What a one-click POST may carry: "List-Unsubscribe=One-Click" and little else. */
const MAX_BODY_BYTES = 1024;

const Params = z.object({ token: z.string().max(200, 'token: not an unsubscribe link') });
const Unsubscribed = z.object({ email: z.literal(false) });

const badLink = 'This unsubscribe link is not valid: it may have been cut short or changed. Open the portal and turn email off in Settings → Notifications.';

/**
 * One-click unsubscribe (RFC 8058), public: the link in a mail's List-Unsubscribe header and footer is the proof.
 * GET shows a page with a button and changes nothing (mail scanners and link previews fetch every link in a mail);
 * POST, what a mail provider's "Unsubscribe" sends (body `List-Unsubscribe=One-Click`, form-encoded or multipart, or
 * nothing), turns the person's email off. A browser gets a page, anything else JSON; a link we did not sign is 400.
 */
export async function unsubscribeRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Form bodies of this route only (the rest of the API takes JSON); whatever they say, only the token counts.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  api.get(
    '/unsubscribe/:token',
    { schema: { tags: ['email'], summary: 'The page behind a mail\'s unsubscribe link: a button that POSTs the same address (changes nothing itself)', params: Params } },
    async (request, reply) => {
      const uid = verifyUnsubscribeToken(app.config.downloadSecret, request.params.token);
      if (!uid) return sendPage(reply.status(400), 'Link not valid', [badLink]);
      const action = `${UNSUBSCRIBE_PATH}${encodeURIComponent(request.params.token)}`;
      return sendPage(reply, 'Stop these emails?', [`You will get no more update emails from ${PRODUCT_NAME}. Payment receipts still come, and the app keeps showing every update.`], {
        form: { action, button: 'Unsubscribe' },
      });
    },
  );

  api.post(
    '/unsubscribe/:token',
    {
      bodyLimit: MAX_BODY_BYTES,
      // A mail provider's servers send everyone's one-click POSTs from a few addresses: each link is counted on its own.
      config: { anonymousWriteKey: (request: FastifyRequest) => `unsubscribe:${(request.params as { token?: string }).token ?? ''}` },
      preParsing: async (request, _reply, payload) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (request.headers['transfer-encoding'] || !Number.isSafeInteger(length) || length > MAX_BODY_BYTES) {
          throw new HttpError(413, 'BODY_TOO_LARGE', `An unsubscribe request carries at most ${MAX_BODY_BYTES} bytes, with a Content-Length`);
        }
        return payload;
      },
      schema: {
        tags: ['email'],
        summary: "One-click unsubscribe (RFC 8058): turns the link's owner's email off; body List-Unsubscribe=One-Click or empty",
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
        params: Params,
        response: { 200: envelope(Unsubscribed), 400: ApiError },
      },
    },
    async (request, reply) => {
      const page = wantsPage(request);
      const uid = verifyUnsubscribeToken(app.config.downloadSecret, request.params.token);
      if (!uid) {
        if (page) return sendPage(reply.status(400), 'Link not valid', [badLink]);
        throw new HttpError(400, 'BAD_UNSUBSCRIBE_LINK', badLink);
      }
      await turnEmailOff(app, uid);
      if (page) return sendPage(reply, 'You are unsubscribed', [`You will get no more update emails from ${PRODUCT_NAME}. Payment receipts still come.`, 'To get emails again, turn Email on in Settings → Notifications.']);
      return { data: { email: false as const } };
    },
  );
}

/** A browser's form post (it asks for HTML first); a mail provider's POST asks for nothing in particular. */
function wantsPage(request: FastifyRequest): boolean {
  return /^\s*text\/html/i.test(request.headers.accept ?? '');
}

function sendPage(reply: FastifyReply, title: string, paragraphs: string[], opts: { form?: { action: string; button: string } } = {}) {
  const form = opts.form
    ? `<form method="post" action="${escapeHtml(opts.form.action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(opts.form.button)}</button></form>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(`${PRODUCT_NAME}: ${title}`)}</title>
<style>body{font-family:Arial,Helvetica,sans-serif;background:#f4f5f7;color:#1a1d23;margin:0;padding:24px}main{max-width:480px;margin:40px auto;background:#fff;border-radius:8px;padding:24px}
button{background:#1f5fd1;color:#fff;border:0;border-radius:6px;padding:12px 20px;font-size:16px;font-weight:bold;cursor:pointer}</style></head>
<body><main><p><strong>${escapeHtml(PRODUCT_NAME)}</strong></p><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${form}</main></body></html>`;
  return reply.type('text/html; charset=utf-8').send(html);
}
