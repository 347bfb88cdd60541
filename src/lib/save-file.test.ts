import { describe, expect, it } from 'vitest';
import { dispositionName } from './save-file.ts';

describe('dispositionName', () => {
  it('prefers the RFC 6266 extended name, then the plain one, then the fallback', () => {
    expect(dispositionName(`attachment; filename="a.pdf"; filename*=UTF-8''Track%20Master%20report.pdf`, 'x')).toBe('Track Master report.pdf');
    expect(dispositionName('attachment; filename="plain name.pdf"', 'x')).toBe('plain name.pdf');
    expect(dispositionName(null, 'fallback.pdf')).toBe('fallback.pdf');
  });
});
