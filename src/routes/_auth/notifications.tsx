import { createFileRoute } from '@tanstack/react-router';
import { NotificationsPage } from '../../features/client/notifications/notifications-page.tsx';

export const Route = createFileRoute('/_auth/notifications')({ component: NotificationsPage });
