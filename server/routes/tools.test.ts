import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEXT_MAX } from '../../domain/tool-schemas.ts';
import { BIGTEXT_MAX, findTool, tools, type ToolDefinition, type ToolField } from '../../domain/tools.ts';
import { files, productRequests } from '../db/schema.ts';
import { minimalPdf } from '../seed/seed-data.ts';
import { backends, createTestApp, defined, storedFileCount, type TestApp, type TestUser } from '../test-helper.ts';

const MAX_UPLOAD = 1024;
const smallPdf = minimalPdf('Evidence', ['Statement line 1']);
const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120, 0)]);
const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62, 0), Buffer.from('PE\0\0'), Buffer.alloc(60, 1)]);

type Values = Record<string, string | number | Blob | undefined>;

function validValue(field: ToolField): string | number | Blob {
  switch (field.type) {
    case 'text':
      return `Example ${field.header}`;
    case 'bigtext':
      return 'The scammer contacted me by phone and asked for a transfer.';
    case 'select':
      return defined(field.options?.[0], `an option of ${field.backendHeader}`);
    case 'number':
      return 1234.5;
    case 'date':
      return Date.UTC(2026, 2, 14, 9, 30);
    case 'file':
      return new Blob([new Uint8Array(smallPdf)], { type: 'application/pdf' });
  }
}

const toolById = (id: string) => defined(findTool(id), `the tool ${id}`);

function validValues(tool: ToolDefinition): Values {
  return Object.fromEntries(tool.formFields.map((f) => [f.backendHeader, validValue(f)]));
}

async function toMultipart(values: Values, fileName = 'evidence.pdf') {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(key, value, fileName);
    else form.append(key, String(value));
  }
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: defined(response.headers.get('content-type'), 'a multipart content type') };
}

/** The request a client would send for this tool: JSON wrapped under its key, or multipart. */
async function submission(tool: ToolDefinition, values: Values, fileName?: string) {
  if (tool.isFormData) {
    const { payload, contentType } = await toMultipart(values, fileName);
    return { payload, headers: { 'content-type': contentType } };
  }
  const fields = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  return { payload: JSON.stringify({ [tool.hrefBackend]: fields }), headers: { 'content-type': 'application/json' } };
}

for (const backend of backends()) {
  describe(`tool submissions (${backend})`, () => {
    let t: TestApp;
    let client: TestUser;

    beforeAll(async () => {
      t = await createTestApp({ backend, maxUploadBytes: MAX_UPLOAD });
      client = await t.user({ client: true });
    });
    afterAll(async () => {
      await t?.close();
    });

    async function submit(tool: ToolDefinition, values: Values, opts: { user?: TestUser; fileName?: string; headers?: Record<string, string> } = {}) {
      const { payload, headers } = await submission(tool, values, opts.fileName);
      return t.app.inject({
        method: 'POST',
        url: `/api/${tool.hrefBackend}`,
        payload,
        headers: { ...(opts.user ?? client).headers, ...headers, ...opts.headers },
      });
    }

    async function stored() {
      const [requests] = await t.services.db.select({ n: count() }).from(productRequests);
      const [fileRows] = await t.services.db.select({ n: count() }).from(files);
      return { requests: Number(requests.n), files: Number(fileRows.n), onDisk: await storedFileCount(t.services) };
    }

    it('describes every tool endpoint in the OpenAPI document', async () => {
      const res = await t.app.inject({ url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      const paths = Object.keys(res.json().paths);
      for (const tool of tools) expect(paths).toContain(`/api/${tool.hrefBackend}`);
    });

    it('uses the test storage directory the tests look at', () => {
      expect(t.services.storage.maxBytes).toBe(MAX_UPLOAD);
      expect(smallPdf.length).toBeLessThan(MAX_UPLOAD);
    });

    describe.each(tools.map((tool) => [tool.id, tool] as const))('%s', (_id, tool) => {
      const firstOf = (type: ToolField['type']) => tool.formFields.find((f) => f.type === type);

      async function expectRefused(values: Values, field: string, status = 400) {
        const before = await stored();
        const res = await submit(tool, values);
        expect(res.statusCode, res.body).toBe(status);
        const body = res.json();
        expect(body.error.code).toBeTypeOf('string');
        expect(body.error.message).toContain(field);
        expect(await stored()).toEqual(before);
        return body.error.message as string;
      }

      it('refuses a missing field, naming it', async () => {
        for (const field of tool.formFields.filter((f) => ['text', 'number', 'select', 'bigtext'].includes(f.type))) {
          await expectRefused({ ...validValues(tool), [field.backendHeader]: undefined }, `${field.backendHeader}: ${field.backendHeader}`);
        }
      });

      it('refuses a wrong type, naming the field', async () => {
        const number = firstOf('number');
        if (number) {
          const message = await expectRefused({ ...validValues(tool), [number.backendHeader]: 'a lot' }, number.backendHeader);
          expect(message).toContain(`${number.backendHeader} must be a number`);
        }
        if (!tool.isFormData) {
          // JSON keeps types: a number where text is expected is refused.
          const text = defined(firstOf('text'), 'a text field');
          await expectRefused({ ...validValues(tool), [text.backendHeader]: 42 }, text.backendHeader);
        }
      });

      it('refuses an over-long text, naming the field', async () => {
        const big = firstOf('bigtext');
        if (big) {
          const message = await expectRefused({ ...validValues(tool), [big.backendHeader]: 'x'.repeat(BIGTEXT_MAX + 1) }, big.backendHeader);
          expect(message).toContain(`at most ${BIGTEXT_MAX} characters`);
        }
        const text = defined(firstOf('text'), 'a text field');
        await expectRefused({ ...validValues(tool), [text.backendHeader]: 'x'.repeat(TEXT_MAX + 1) }, text.backendHeader);
      });

      it('refuses an unknown select option, naming the field', async () => {
        const select = defined(firstOf('select'), 'a select field');
        const message = await expectRefused({ ...validValues(tool), [select.backendHeader]: 'lottery' }, select.backendHeader);
        expect(message).toContain('must be one of');
      });

      it('refuses an unknown extra field, naming it', async () => {
        await expectRefused({ ...validValues(tool), favouriteColour: 'blue' }, 'favouriteColour');
      });

      it('refuses the other body kind with 415', async () => {
        const before = await stored();
        const wrong = tool.isFormData
          ? { payload: JSON.stringify({ [tool.hrefBackend]: {} }), headers: { 'content-type': 'application/json' } }
          : await toMultipart(validValues(tool)).then((m) => ({ payload: m.payload, headers: { 'content-type': m.contentType } }));
        const res = await t.app.inject({ method: 'POST', url: `/api/${tool.hrefBackend}`, payload: wrong.payload, headers: { ...client.headers, ...wrong.headers } });
        expect(res.statusCode).toBe(415);
        expect(res.json().error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining(tool.header) });
        expect(await stored()).toEqual(before);
      });

      it('stores a valid submission as Pending and answers 201 Created', async () => {
        const before = await stored();
        const res = await submit(tool, validValues(tool));
        expect(res.statusCode, res.body).toBe(201);
        expect(res.statusMessage).toBe('Created');
        const { data } = res.json();
        expect(data).toMatchObject({
          productRequestType: tool.ToolNameBackend,
          status: 'Pending',
          contractSigned: false,
          totalAmount: null,
          paid: 0,
          leftToPay: null,
        });
        for (const field of tool.formFields) {
          const key = `${tool.ToolNameBackend}_${field.backendHeader}`;
          if (field.type === 'file') expect(data.requestDetails).not.toHaveProperty(key);
          else expect(data.requestDetails[key]).toEqual(validValue(field));
        }
        const fileCount = tool.formFields.filter((f) => f.type === 'file').length;
        expect(data.attachments).toHaveLength(fileCount);
        expect(await stored()).toEqual({ requests: before.requests + 1, files: before.files + fileCount, onDisk: before.onDisk + fileCount });
      });
    });

    it('records each attachment with its SHA-256, kind and field', async () => {
      const tool = toolById('bank-dispute');
      const res = await submit(tool, validValues(tool), { fileName: 'statement march.pdf' });
      expect(res.statusCode, res.body).toBe(201);
      const { data } = res.json();
      expect(data.attachments).toEqual([{ id: expect.any(String), field: 'bankStatement', name: 'statement march.pdf' }]);
      const [row] = await t.services.db.select().from(files).where(eq(files.id, data.attachments[0].id));
      expect(row).toMatchObject({
        kind: 'attachment',
        requestId: data.id,
        field: 'bankStatement',
        contentType: 'application/pdf',
        size: smallPdf.length,
        sha256: createHash('sha256').update(smallPdf).digest('hex'),
        userId: client.uid,
      });
      expect(row.storedName).not.toContain('statement');
    });

    it('accepts a file tool without its optional file', async () => {
      const tool = toolById('exchange-dispute');
      const res = await submit(tool, { ...validValues(tool), cryptoTransfer: undefined });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.attachments).toEqual([]);
    });

    it('answers 413 for an oversized file and stores nothing', async () => {
      const tool = toolById('web-intelligence');
      const before = await stored();
      const big = Buffer.concat([smallPdf, Buffer.alloc(MAX_UPLOAD, 0x20)]);
      const res = await submit(tool, { ...validValues(tool), relevantInformation: new Blob([new Uint8Array(big)], { type: 'application/pdf' }) });
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toEqual({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('1 KB') });
      expect(await stored()).toEqual(before);
    });

    it.each([
      ['an ELF binary', elf],
      ['a Windows executable', exe],
    ])('answers 415 for %s named .pdf and stores nothing', async (_name, bytes) => {
      const tool = toolById('bank-dispute');
      const before = await stored();
      const res = await submit(tool, { ...validValues(tool), bankStatement: new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }) }, { fileName: 'statement.pdf' });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_FILE_TYPE');
      expect(await stored()).toEqual(before);
    });

    it('removes the written files when storing the request fails', async () => {
      const tool = toolById('web-intelligence');
      const before = await stored();
      const spy = vi.spyOn(t.services.db, 'transaction').mockRejectedValueOnce(new Error('database went away'));
      try {
        const res = await submit(tool, validValues(tool));
        expect(res.statusCode).toBe(500);
        expect(res.json().error.code).toBe('INTERNAL');
      } finally {
        spy.mockRestore();
      }
      expect(await stored()).toEqual(before);
    });

    it('refuses a field sent as a file where text is expected', async () => {
      const tool = toolById('web-intelligence');
      const res = await submit(tool, { ...validValues(tool), websiteName: new Blob([new Uint8Array(smallPdf)]) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('websiteName');
    });

    it('needs a signed-in client', async () => {
      const tool = tools[0];
      const anonymous = await t.app.inject({ method: 'POST', url: `/api/${tool.hrefBackend}`, payload: { [tool.hrefBackend]: validValues(tool) } });
      expect(anonymous.statusCode).toBe(401);
      const lead = await t.user();
      const before = await stored();
      const res = await submit(tool, validValues(tool), { user: lead });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('NOT_A_CLIENT');
      expect(await stored()).toEqual(before);
    });

    it('stores one request for the same Idempotency-Key sent twice', async () => {
      for (const tool of [defined(tools.find((x) => !x.isFormData), 'a JSON tool'), defined(tools.find((x) => x.isFormData), 'a multipart tool')]) {
        const before = await stored();
        const key = `purchase-${tool.id}-${Date.now()}`;
        const values = validValues(tool);
        const first = await submit(tool, values, { headers: { 'idempotency-key': key } });
        const second = await submit(tool, values, { headers: { 'idempotency-key': key } });
        expect(first.statusCode, first.body).toBe(201);
        expect(second.statusCode).toBe(201);
        expect(second.headers['idempotent-replayed']).toBe('true');
        expect(second.json().data.id).toBe(first.json().data.id);
        const fileCount = tool.isFormData ? 1 : 0;
        expect(await stored()).toEqual({ requests: before.requests + 1, files: before.files + fileCount, onDisk: before.onDisk + fileCount });
      }
    });

    it('shows a new request in the grouped list and the Pending count', async () => {
      const other = await t.user({ client: true });
      const countsBefore = (await t.app.inject({ url: '/api/user/product-requests-status-count', headers: other.headers })).json().data;
      expect(countsBefore).toEqual({ done: 0, inProgress: 0, pending: 0, waitingForActions: 0 });

      const jsonTool = toolById('blockchain-analysis');
      const fileTool = toolById('web-intelligence');
      const a = (await submit(jsonTool, validValues(jsonTool), { user: other })).json().data;
      const b = (await submit(fileTool, validValues(fileTool), { user: other })).json().data;

      const counts = (await t.app.inject({ url: '/api/user/product-requests-status-count', headers: other.headers })).json().data;
      expect(counts).toEqual({ done: 0, inProgress: 0, pending: 2, waitingForActions: 0 });
      const groups = (await t.app.inject({ url: '/api/user/product-requests', headers: other.headers })).json().data;
      const group = (type: string) => groups.find((g: { productRequestType: string }) => g.productRequestType === type);
      expect(group(jsonTool.ToolNameBackend).requests).toEqual([a]);
      expect(group(fileTool.ToolNameBackend).requests).toEqual([b]);
      // The first client's submissions are not in this user's list.
      expect(groups.flatMap((g: { requests: unknown[] }) => g.requests)).toHaveLength(2);
    });
  });
}
