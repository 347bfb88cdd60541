import { createFileRoute } from '@tanstack/react-router';
import { CreateNotificationPage } from '../../../features/staff/admin/create-notification-page.tsx';

export const Route = createFileRoute('/_auth/_admin/create-notifications')({ component: CreateNotificationPage });
