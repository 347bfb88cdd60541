/** Placeholder until its feature lands. */
export function LoginPage() {
  return <p>Login</p>;
}
