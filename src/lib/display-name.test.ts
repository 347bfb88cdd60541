import { describe, expect, it } from 'vitest';
import { greetingName, nameFromEmail } from './display-name.ts';

describe('greetingName', () => {
  it('uses the profile name when there is one', () => {
    expect(greetingName({ firstName: 'Dana', lastName: 'Client', email: 'client@demo.test' })).toBe('Dana Client');
    expect(greetingName({ firstName: 'Dana', lastName: null, email: 'client@demo.test' })).toBe('Dana');
  });

  it('without a name, makes one from the email rather than showing the email', () => {
    expect(greetingName({ firstName: null, lastName: '', email: 'jane.doe-82@example.com' })).toBe('Jane Doe');
    expect(greetingName({ email: 'MARIA_LOPEZ@example.com' })).toBe('Maria Lopez');
    expect(greetingName(null)).toBe('');
  });

  it('treats an email stored as the first name (from the initial form) as no name', () => {
    expect(greetingName({ firstName: 'jane.doe-82@example.com', lastName: null, email: 'jane.doe-82@example.com' })).toBe('Jane Doe');
  });
});

describe('nameFromEmail', () => {
  it('keeps letter words of two letters or more, at most three, capitalised', () => {
    expect(nameFromEmail('ann.marie.de.souza@x.org')).toBe('Ann Marie De');
    expect(nameFromEmail('j.smith@x.org')).toBe('Smith');
    expect(nameFromEmail('rené.müller@x.de')).toBe('René Müller');
  });

  it('falls back to the email when the local part has no word', () => {
    expect(nameFromEmail('12345@x.org')).toBe('12345@x.org');
  });
});
