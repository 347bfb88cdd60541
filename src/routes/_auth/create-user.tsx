import { createFileRoute } from '@tanstack/react-router';
import { CreateUserPage } from '../../features/admin/create-user-page.tsx';

export const Route = createFileRoute('/_auth/create-user')({ component: CreateUserPage });
