import { createFileRoute } from '@tanstack/react-router';
import { ContactRequestsPage } from '../../features/client/contact/contact-requests-page.tsx';

export const Route = createFileRoute('/_auth/contact-requests')({ component: ContactRequestsPage });
