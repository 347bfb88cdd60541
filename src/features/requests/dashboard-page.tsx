/** Placeholder until its feature lands. */
export function DashboardPage() {
  return <p>Dashboard</p>;
}
