/** Placeholder until its feature lands. */
export function ContactUsPage() {
  return <p>Contact Us</p>;
}
