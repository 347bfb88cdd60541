/** Placeholder until its feature lands. */
export function GatingBanners() {
  return <p></p>;
}
