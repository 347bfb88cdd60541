/** Placeholder until its feature lands. */
export function SettingsPage() {
  return <p>Settings</p>;
}
