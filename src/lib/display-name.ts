/**
 * The name the app greets a user by. With a first or last name in the profile, that; without one, a name
 * made from the email's local part ("jane.doe-82@…" → "Jane Doe"), so the screen never shows the email as
 * a name. Display only: it is never written to the profile (the initial form still sends the real one).
 */
export function greetingName(profile: { firstName?: string | null; lastName?: string | null; email: string } | null | undefined): string {
  if (!profile) return '';
  const full = [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim();
  // The initial form sends the display name, which was the email for a user without a name, and the server
  // keeps it as the first name: an address is not a name to greet by.
  return full && !full.includes('@') ? full : nameFromEmail(profile.email);
}

/** Letters-only words of the local part, each capitalised; at most three. The whole email when it has none. */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  const words = local
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 1)
    .slice(0, 3)
    .map((w) => w.charAt(0).toLocaleUpperCase() + w.slice(1).toLocaleLowerCase());
  return words.length > 0 ? words.join(' ') : email;
}
