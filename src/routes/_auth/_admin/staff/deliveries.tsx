import { createFileRoute } from '@tanstack/react-router';
import { DeliveriesPage } from '../../../../features/staff/admin/deliveries-page.tsx';

export const Route = createFileRoute('/_auth/_admin/staff/deliveries')({ component: DeliveriesPage });
