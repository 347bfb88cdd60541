/** Placeholder until its feature lands. */
export function OfflineIndicator() {
  return <p></p>;
}
