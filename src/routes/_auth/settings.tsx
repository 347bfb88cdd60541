import { createFileRoute } from '@tanstack/react-router';
import { BillingTab } from '../../features/client/billing/billing-tab.tsx';
import { SettingsPage } from '../../features/client/settings/settings-page.tsx';
import { readSettingsSearch } from '../../lib/deep-links.ts';

/** The tab lives in the URL (?tab=billings), so a notification or a shared link opens it. */
export const Route = createFileRoute('/_auth/settings')({ validateSearch: readSettingsSearch, component: Settings });

function Settings() {
  const { tab = 'profile' } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <SettingsPage billing={<BillingTab />} tab={tab} onTab={(next) => void navigate({ search: { tab: next === 'profile' ? undefined : next }, replace: true })} />;
}
