/** Placeholder until its feature lands. */
export function InitialFormPage() {
  return <p>Initial form</p>;
}
