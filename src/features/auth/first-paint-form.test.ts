import { afterEach, describe, expect, it } from 'vitest';
import { followFirstPaintForm } from './first-paint-form.ts';

function staticCard() {
  document.body.innerHTML = `<main data-first-paint="login"><form>
    <input name="email" /><input name="password" type="password" /></form></main><button id="elsewhere">x</button>`;
  const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
  return { email: input('email'), password: input('password'), main: document.querySelector('main')! };
}

describe('followFirstPaintForm', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('is null where there is no static first paint', () => {
    expect(followFirstPaintForm()).toBeNull();
  });

  it('reads what was typed after it started, from inputs already removed from the page', () => {
    const card = staticCard();
    card.email.value = 'a@';
    const form = followFirstPaintForm()!;
    card.email.value = 'a@example.com';
    card.password.value = 'secret';
    card.main.remove();
    expect(form.take()).toEqual({ email: 'a@example.com', password: 'secret', focused: null });
  });

  it('follows the focus from field to field, and keeps it when the card is replaced', () => {
    const card = staticCard();
    card.email.focus();
    const form = followFirstPaintForm()!;
    card.password.focus();
    card.main.remove();
    expect(form.take().focused).toBe('password');
  });

  it('forgets the focus once it leaves the form', () => {
    const card = staticCard();
    card.email.focus();
    const form = followFirstPaintForm()!;
    document.querySelector<HTMLButtonElement>('#elsewhere')!.focus();
    expect(form.take().focused).toBeNull();
  });
});
