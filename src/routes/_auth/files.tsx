import { createFileRoute } from '@tanstack/react-router';
import { FilesPage } from '../../features/files/files-page.tsx';

export const Route = createFileRoute('/_auth/files')({ component: FilesPage });
