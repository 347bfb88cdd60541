import { createFileRoute } from '@tanstack/react-router';
import { BusinessSettingsPage } from '../../../../features/staff/admin/business-settings-page.tsx';

export const Route = createFileRoute('/_auth/_admin/staff/business-settings')({ component: BusinessSettingsPage });
