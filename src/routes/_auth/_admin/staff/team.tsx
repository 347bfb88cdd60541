import { createFileRoute } from '@tanstack/react-router';
import { TeamPage } from '../../../../features/staff/team/team-page.tsx';

export const Route = createFileRoute('/_auth/_admin/staff/team')({ component: TeamPage });
