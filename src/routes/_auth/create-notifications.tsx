import { createFileRoute } from '@tanstack/react-router';
import { CreateNotificationPage } from '../../features/admin/create-notification-page.tsx';

export const Route = createFileRoute('/_auth/create-notifications')({ component: CreateNotificationPage });
