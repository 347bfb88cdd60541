import { createFileRoute } from '@tanstack/react-router';
import { TeamPage } from '../../../features/staff/team/team-page.tsx';

export const Route = createFileRoute('/_auth/staff/team')({ component: TeamPage });
