import { createFileRoute } from '@tanstack/react-router';
import { ContactUsPage } from '../../features/client/contact/contact-us-page.tsx';

export const Route = createFileRoute('/_auth/contact-us')({ component: ContactUsPage });
