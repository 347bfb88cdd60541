import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDoubleEscape, doubleEscapeMs, escapeClosesSomething, portalEntriesBefore } from './quick-exit.ts';

describe('createDoubleEscape', () => {
  const setup = (closes = () => false) => {
    let t = 0;
    const onDouble = vi.fn();
    const press = createDoubleEscape(onDouble, () => t, closes);
    return { onDouble, press: (at: number, key = 'Escape', repeat = false) => ((t = at), press({ key, repeat })) };
  };

  it('leaves on the second Escape within the window, not on one, nor on two far apart', () => {
    const { onDouble, press } = setup();
    press(0);
    expect(onDouble).not.toHaveBeenCalled();
    press(doubleEscapeMs + 1); // too late: this one starts a new count
    expect(onDouble).not.toHaveBeenCalled();
    press(doubleEscapeMs + 200);
    expect(onDouble).toHaveBeenCalledTimes(1);
    press(doubleEscapeMs + 300); // the count starts again after leaving
    expect(onDouble).toHaveBeenCalledTimes(1);
  });

  it('ignores other keys and a held-down key', () => {
    const { onDouble, press } = setup();
    press(0);
    press(10, 'Enter');
    press(20, 'Escape', true);
    expect(onDouble).not.toHaveBeenCalled();
  });

  it('an Escape that closes a dialog does not count', () => {
    let open = true;
    const { onDouble, press } = setup(() => open);
    press(0); // closes the dialog
    open = false;
    press(100); // the first that counts
    expect(onDouble).not.toHaveBeenCalled();
    press(200);
    expect(onDouble).toHaveBeenCalledTimes(1);
  });
});

describe('escapeClosesSomething', () => {
  afterEach(() => document.body.replaceChildren());

  it('sees an open dialog or menu, not a closed one', () => {
    expect(escapeClosesSomething()).toBe(false);
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('data-state', 'closed');
    document.body.append(dialog);
    expect(escapeClosesSomething()).toBe(false);
    dialog.setAttribute('data-state', 'open');
    expect(escapeClosesSomething()).toBe(true);
  });
});

describe('portalEntriesBefore', () => {
  const history = (state: unknown) => ({ state }) as History;

  it('reads the Navigation API first, then the router index, else 0', () => {
    expect(portalEntriesBefore({ history: history({ __TSR_index: 5 }), navigation: { currentEntry: { index: 3 } } })).toBe(3);
    expect(portalEntriesBefore({ history: history({ __TSR_index: 4 }) })).toBe(4);
    expect(portalEntriesBefore({ history: history(null) })).toBe(0);
    expect(portalEntriesBefore({ history: history({ __TSR_index: 'x' }) })).toBe(0);
  });
});
