import { createFileRoute } from '@tanstack/react-router';
import { BillingTab } from '../../features/client/billing/billing-tab.tsx';
import { SettingsPage } from '../../features/client/settings/settings-page.tsx';

export const Route = createFileRoute('/_auth/settings')({ component: Settings });

function Settings() {
  return <SettingsPage billing={<BillingTab />} />;
}
