/** Placeholder until its feature lands. */
export function CreateNotificationPage() {
  return <p>Create notification</p>;
}
