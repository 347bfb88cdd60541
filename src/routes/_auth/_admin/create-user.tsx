import { createFileRoute } from '@tanstack/react-router';
import { CreateUserPage } from '../../../features/staff/admin/create-user-page.tsx';

export const Route = createFileRoute('/_auth/_admin/create-user')({ component: CreateUserPage });
