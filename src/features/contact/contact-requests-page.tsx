/** Placeholder until its feature lands. */
export function ContactRequestsPage() {
  return <p>Contact requests</p>;
}
