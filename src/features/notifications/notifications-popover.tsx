/** Placeholder until its feature lands. */
export function NotificationsPopover() {
  return <p></p>;
}
