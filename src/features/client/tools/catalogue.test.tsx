import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toolSubmissionSchema } from '../../../../domain/tool-schemas.ts';
import { type ToolDefinition, tools } from '../../../../domain/tools.ts';
import { PurchaseDialog } from './purchase-dialog.tsx';
import type { PurchaseDraft } from './purchase.machine.ts';
import { toSubmission, validateDraft } from './purchase-values.ts';

afterEach(cleanup);

/** A valid raw form draft (as the inputs hold it) for any tool. */
function sampleValues(tool: ToolDefinition): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of tool.formFields) {
    if (field.type === 'select') values[field.backendHeader] = field.options![0];
    else if (field.type === 'number') values[field.backendHeader] = '1250.5';
    else if (field.type === 'date') values[field.backendHeader] = '17/05/2024';
    else if (field.type === 'text' || field.type === 'bigtext') values[field.backendHeader] = `sample ${field.backendHeader}`;
  }
  return values;
}

function renderDialog(tool: ToolDefinition, submit = vi.fn(async (_draft: PurchaseDraft) => 'sent' as const)) {
  render(
    <ChakraProvider value={defaultSystem}>
      <PurchaseDialog tool={tool} onClose={() => undefined} submit={submit} onSubmitted={() => undefined} />
    </ChakraProvider>,
  );
  return submit;
}

describe.each(tools.map((tool) => [tool.header, tool] as const))('%s', (_name, tool) => {
  it('renders every form field of the catalogue with its label', async () => {
    renderDialog(tool);
    await screen.findByRole('dialog');
    for (const field of tool.formFields) {
      const input = screen.getByLabelText(field.header, { exact: false });
      expect(input).toBeTruthy();
      if (field.type === 'bigtext') {
        expect(input.tagName).toBe('TEXTAREA');
        expect(input.getAttribute('maxlength')).toBe('500');
        expect(input.getAttribute('rows')).toBe('5');
      }
      if (field.type === 'select') {
        const options = Array.from((input as HTMLSelectElement).options);
        expect(options[0].disabled).toBe(true);
        expect(options[0].value).toBe('');
        expect(options.slice(1).map((o) => o.value)).toEqual([...field.options!]);
        for (const o of options.slice(1)) expect(o.textContent![0]).toBe(o.textContent![0].toUpperCase());
      }
      if (field.type === 'date') {
        // A text field read day first: a native date input would show the browser locale's mm/dd/yyyy.
        expect(input.getAttribute('type')).toBe('text');
        expect(input.getAttribute('placeholder')).toBe('DD/MM/YYYY');
        expect(input.getAttribute('inputmode')).toBe('numeric');
      }
      if (field.type === 'number') expect(input.getAttribute('type')).toBe('number');
      if (field.type === 'file') expect(input.getAttribute('type')).toBe('file');
    }
  });

  it('converts numbers to numbers and dates to timestamps, and the schema accepts the sample', () => {
    const submission = toSubmission(tool, sampleValues(tool));
    for (const field of tool.formFields) {
      if (field.type === 'number') expect(submission[field.backendHeader]).toBe(1250.5);
      if (field.type === 'date') expect(submission[field.backendHeader]).toBe(new Date(2024, 4, 17).getTime());
      if (field.type === 'file') expect(submission[field.backendHeader]).toBeUndefined();
    }
    expect(toolSubmissionSchema(tool, 'json').safeParse(submission).success).toBe(true);
    expect(validateDraft(tool, { values: sampleValues(tool), files: {} })).toEqual({});
  });

  it.runIf(tool.formFields.some((f) => f.type === 'date'))('refuses a day that does not exist with the format in the message', () => {
    const date = tool.formFields.find((f) => f.type === 'date')!;
    for (const typed of ['31/02/2026', '2024-05-17', '05/17/2024']) {
      const values = { ...sampleValues(tool), [date.backendHeader]: typed };
      expect(validateDraft(tool, { values, files: {} })).toEqual({
        [date.backendHeader]: `${date.header} must be a real date written DD/MM/YYYY, for example 17/05/2024`,
      });
    }
  });

  it('rejects a sample with any required field missing', () => {
    const required = tool.formFields.filter((f) => ['text', 'number', 'select', 'bigtext'].includes(f.type));
    expect(required.length).toBeGreaterThan(0);
    for (const field of required) {
      const values = sampleValues(tool);
      delete values[field.backendHeader];
      expect(toolSubmissionSchema(tool, 'json').safeParse(toSubmission(tool, values)).success).toBe(false);
      expect(Object.keys(validateDraft(tool, { values, files: {} }))).toEqual([field.backendHeader]);
    }
  });

  it('shows field errors and does not continue when the form is empty', async () => {
    renderDialog(tool);
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const first = tool.formFields.find((f) => f.type !== 'date' && f.type !== 'file')!;
    expect(await screen.findByText(`${first.header} is required`)).toBeTruthy();
    expect(screen.queryByText('Submit request')).toBeNull();
  });
});

describe('purchase dialog flow', () => {
  it('goes to the terms, keeps the values on Go back, and submits after agreeing', async () => {
    const tool = tools[0];
    const submit = renderDialog(tool);
    await screen.findByRole('dialog');
    const values = sampleValues(tool);
    for (const field of tool.formFields) {
      fireEvent.change(screen.getByLabelText(field.header, { exact: false }), { target: { value: values[field.backendHeader] } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const submitButton = await screen.findByRole('button', { name: 'Submit request' });
    expect((submitButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.getByLabelText('Fraud URL', { exact: false })).toBeTruthy());
    expect((screen.getByLabelText('Fraud URL', { exact: false }) as HTMLInputElement).value).toBe(values.fraudUrl);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('checkbox'));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Submit request' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Submit request' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit.mock.calls[0][0]).toEqual({ values, files: {} });
  });
});
