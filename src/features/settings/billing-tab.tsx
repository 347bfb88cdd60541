/** Placeholder: the tools feature writes the Billings table here. */
export function BillingTab() {
  return null;
}
