import { createFileRoute } from '@tanstack/react-router';
import { StaySafePage } from '../../features/client/stay-safe/stay-safe-page.tsx';

export const Route = createFileRoute('/_auth/stay-safe')({ component: StaySafePage });
