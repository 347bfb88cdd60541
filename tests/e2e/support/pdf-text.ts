// Text of a PDF drawn with the standard fonts (as pdf-lib writes it: Flate-compressed content streams, strings as
// <hex> or (literal) operands of Tj), one line per Tj. Enough to read our own case file in CI with no system package.
import { inflateSync } from 'node:zlib';

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  const raw = pdf.toString('latin1');
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      content = m[1];
    }
    const shown = /<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g;
    for (let t = shown.exec(content); t; t = shown.exec(content)) {
      lines.push(t[1] !== undefined ? Buffer.from(t[1].replace(/\s/g, ''), 'hex').toString('latin1') : t[2].replace(/\\(.)/g, '$1'));
    }
  }
  return lines.join('\n');
}
