/**
 * /login's static first paint (server/platform/first-paint.ts) takes typing before the app's sign-in screen replaces it.
 * The app's first render yields to the browser while it runs (main.tsx), so typing and focus can still change on
 * the static form until that render commits: this follows the form from the render's start and is read when it
 * commits (a removed input keeps its value; focus is tracked, since a removed field no longer has it).
 */
export interface FirstPaintForm {
  /** The values and the focused field now; stops following the form. */
  take(): { email: string; password: string; focused: string | null };
}

export function followFirstPaintForm(doc: Document = document): FirstPaintForm | null {
  const form = doc.querySelector<HTMLFormElement>('[data-first-paint] form');
  if (!form) return null;
  const input = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const active = doc.activeElement;
  let focused = active instanceof HTMLInputElement && form.contains(active) ? active.name : null;
  const onFocusIn = (e: FocusEvent) => {
    focused = e.target instanceof HTMLInputElement ? e.target.name : null;
  };
  // Focus moving to something else on the page clears it; focus going nowhere does not, since that is also what
  // Chromium reports as the app's render removes the focused field.
  const onFocusOut = (e: FocusEvent) => {
    if (e.relatedTarget instanceof Node && !form.contains(e.relatedTarget)) focused = null;
  };
  form.addEventListener('focusin', onFocusIn);
  form.addEventListener('focusout', onFocusOut);
  return {
    take() {
      form.removeEventListener('focusin', onFocusIn);
      form.removeEventListener('focusout', onFocusOut);
      return { email: input('email')?.value ?? '', password: input('password')?.value ?? '', focused };
    },
  };
}
