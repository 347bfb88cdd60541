/** Placeholder until its feature lands. */
export function NotificationsPage() {
  return <p>Notifications</p>;
}
