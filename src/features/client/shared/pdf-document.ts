/** A block of a document: a heading and its lines; a line that is an array is an indented group. */
export interface PdfSection {
  heading: string;
  lines: (string | string[])[];
}

const PAGE = { width: 595.28, height: 841.89 }; // A4 in points
const MARGIN = 50;
const SIZE = 10;
const LEADING = 14;

/** Characters the standard PDF fonts (WinAnsi) can draw; anything else becomes "?" rather than failing the whole file. */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
export function printable(text: string): string {
  return Array.from(text.replace(/\r\n?/g, '\n').replace(/\t/g, '  '))
    .map((c) => ((c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || c === '\n' || WIN_ANSI_EXTRA.includes(c) ? c : '?'))
    .join('');
}

/**
 * The client's PDFs made on the device from the replica (the case file, a request's pro-forma invoice).
 * Draws the sections on A4 pages: headings in bold, long lines wrapped at word boundaries (a word longer than
 * the line, a hash or an address, is cut), a new page when one is full. pdf-lib is loaded here, on demand, so it
 * is its own chunk and never part of the first load (docs/decisions/015-case-file-pdf.md).
 */
export async function sectionsPdf(title: string, sections: PdfSection[]): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('Fraud Recovery Portal');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * MARGIN;
  let page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  const wrap = (text: string, font: typeof regular, size: number, indent: number): string[] => {
    const max = width - indent;
    const out: string[] = [];
    for (const paragraph of printable(text).split('\n')) {
      let line = '';
      for (const word of paragraph.split(' ')) {
        let piece = word;
        while (font.widthOfTextAtSize(piece, size) > max) {
          let cut = piece.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(piece.slice(0, cut), size) > max) cut--;
          if (line) out.push(line);
          out.push(piece.slice(0, cut));
          line = '';
          piece = piece.slice(cut);
        }
        const next = line ? `${line} ${piece}` : piece;
        if (font.widthOfTextAtSize(next, size) > max) {
          out.push(line);
          line = piece;
        } else line = next;
      }
      out.push(line);
    }
    return out;
  };
  const draw = (text: string, { font = regular, size = SIZE, indent = 0, gap = 0 } = {}) => {
    for (const line of wrap(text, font, size, indent)) {
      if (y - LEADING < MARGIN) {
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - MARGIN;
      }
      y -= size + (size > SIZE ? 6 : LEADING - SIZE);
      page.drawText(line, { x: MARGIN + indent, y, size, font, color: rgb(0.1, 0.1, 0.15) });
    }
    y -= gap;
  };

  draw(title, { font: bold, size: 18, gap: 8 });
  for (const section of sections) {
    draw(section.heading, { font: bold, size: 13, gap: 4 });
    for (const line of section.lines) {
      if (typeof line === 'string') draw(line);
      else line.forEach((text, i) => draw(text, i === 0 ? { font: bold } : { indent: 12 }));
      y -= 4;
    }
    y -= 8;
  }
  return doc.save();
}
