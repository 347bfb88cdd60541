import { PageSizes, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { formatCents, formatDate } from '../../domain/format.ts';
import type { Cents } from '../../domain/money.ts';

/** Printed at the top of every invoice. The client shows the same name (src/app/shell/brand-mark.tsx). */
export const PORTAL_NAME = 'Fraud Recovery Portal';

export interface InvoiceData {
  /** INV-2001 */
  number: string;
  /** When the invoice was issued (ISO string or Date). */
  date: string | Date;
  client: { name: string; email: string };
  /** The tool's header, e.g. "Bank Dispute". */
  service: string;
  requestId: string;
  /** What this payment was. */
  amount: Cents;
  /** The day the client paid (YYYY-MM-DD). */
  paidAt: string;
  /** e.g. "Wire transfer" */
  method: string;
  reference: string;
  /** The request's price, paid to date (this payment included) and what is still owed. */
  total: Cents;
  paidToDate: Cents;
  leftToPay: Cents;
}

const MARGIN = 56;
const INK = rgb(0.12, 0.14, 0.2);
const MUTED = rgb(0.42, 0.45, 0.5);
const RULE = rgb(0.82, 0.84, 0.88);

/** A one-page A4 invoice for one recorded payment. */
export async function renderInvoicePdf(invoice: InvoiceData): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Invoice ${invoice.number}`);
  pdf.setAuthor(PORTAL_NAME);
  pdf.setCreator(PORTAL_NAME);
  pdf.setCreationDate(new Date(invoice.date));
  const page = pdf.addPage(PageSizes.A4);
  const fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  const writer = pageWriter(page, fonts);

  const top = page.getHeight() - MARGIN;
  writer.text(PORTAL_NAME, MARGIN, top, { size: 12, bold: true, color: MUTED });
  writer.text(`Invoice ${invoice.number}`, MARGIN, top - 34, { size: 24, bold: true });
  writer.text(`Date: ${formatDate(invoice.date)}`, MARGIN, top - 58, { size: 11, color: MUTED });

  writer.text('Billed to', MARGIN, top - 96, { size: 10, bold: true, color: MUTED });
  writer.text(invoice.client.name, MARGIN, top - 112, { size: 12 });
  writer.text(invoice.client.email, MARGIN, top - 128, { size: 11, color: MUTED });

  const lines = invoiceLines(invoice);
  const afterLines = writer.table(['Description', 'Details'], lines, top - 170);

  const totals: [string, string][] = [
    ['Total price', formatCents(invoice.total)],
    ['Paid to date', formatCents(invoice.paidToDate)],
    ['Left to pay', formatCents(invoice.leftToPay)],
  ];
  writer.table(['Summary', ''], totals, afterLines - 28);

  writer.text('Thank you for your payment. Questions about this invoice? Write to us from Contact Us in the portal.', MARGIN, MARGIN, {
    size: 9,
    color: MUTED,
  });
  return Buffer.from(await pdf.save());
}

interface TextOptions {
  size: number;
  bold?: boolean;
  color?: ReturnType<typeof rgb>;
}

/** Drawing helpers bound to one page; every string goes through `winAnsi` first, so no input can make drawText throw. */
function pageWriter(page: PDFPage, fonts: { regular: PDFFont; bold: PDFFont }) {
  const width = page.getWidth() - 2 * MARGIN;
  const supported = new Set(fonts.regular.getCharacterSet());

  function text(value: string, x: number, y: number, opts: TextOptions, maxWidth = width - (x - MARGIN)) {
    const font = opts.bold ? fonts.bold : fonts.regular;
    const clean = fit(winAnsi(value, supported), font, opts.size, maxWidth);
    page.drawText(clean, { x, y, size: opts.size, font, color: opts.color ?? INK });
  }

  /** Two columns, a header row and a rule under each row; returns the y below the last row. */
  function table(header: [string, string], rows: [string, string][], y: number): number {
    const labelWidth = 150;
    const rowHeight = 22;
    text(header[0], MARGIN, y, { size: 10, bold: true, color: MUTED });
    text(header[1], MARGIN + labelWidth, y, { size: 10, bold: true, color: MUTED });
    let cursor = y - 8;
    page.drawLine({ start: { x: MARGIN, y: cursor }, end: { x: MARGIN + width, y: cursor }, thickness: 1, color: INK });
    for (const [label, value] of rows) {
      cursor -= rowHeight;
      text(label, MARGIN, cursor + 7, { size: 11 }, labelWidth - 8);
      text(value, MARGIN + labelWidth, cursor + 7, { size: 11 });
      page.drawLine({ start: { x: MARGIN, y: cursor }, end: { x: MARGIN + width, y: cursor }, thickness: 0.5, color: RULE });
    }
    return cursor;
  }

  return { text, table };
}

/** The invoice's table of what was paid, as printed. */
export function invoiceLines(invoice: InvoiceData): [string, string][] {
  return [
    ['Service', invoice.service],
    ['Request', invoice.requestId],
    // A calendar date (YYYY-MM-DD), read as that day wherever the server runs: as an instant it printed the next
    // day on a server east of UTC+12.
    ['Payment date', formatDate(invoice.paidAt)],
    ['Payment method', invoice.method],
    ['Reference', invoice.reference || '-'],
    ['Amount paid', formatCents(invoice.amount)],
  ];
}

/**
 * The standard Helvetica font only has the WinAnsi characters: anything else (an emoji, a Cyrillic
 * name) becomes '?', and line breaks become spaces, since drawText would otherwise throw.
 */
export function winAnsi(value: string, supported: Set<number>): string {
  // Array.from yields whole characters, so codePointAt(0) always has one; ?? only satisfies the type.
  return Array.from(value.replace(/[\r\n\t]+/g, ' '), (ch) => (supported.has(ch.codePointAt(0) ?? -1) ? ch : '?')).join('');
}

/** Shortens text with "..." so it stays inside its column. */
function fit(value: string, font: PDFFont, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(value, size) <= maxWidth) return value;
  let end = value.length;
  while (end > 0 && font.widthOfTextAtSize(`${value.slice(0, end)}...`, size) > maxWidth) end--;
  return `${value.slice(0, end)}...`;
}
