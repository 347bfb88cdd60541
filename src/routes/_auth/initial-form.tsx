import { createFileRoute } from '@tanstack/react-router';
import { InitialFormPage } from '../../features/profile/initial-form-page.tsx';

export const Route = createFileRoute('/_auth/initial-form')({ component: InitialFormPage });
