/** Placeholder until its feature lands. */
export function CreateUserPage() {
  return <p>Create user</p>;
}
