/** Placeholder until its feature lands. */
export function InitialPasswordPage() {
  return <p>Initial password</p>;
}
