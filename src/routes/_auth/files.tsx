import { createFileRoute } from '@tanstack/react-router';
import { FilesPage } from '../../features/client/files/files-page.tsx';

export const Route = createFileRoute('/_auth/files')({ component: FilesPage });
