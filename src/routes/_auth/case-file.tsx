import { createFileRoute } from '@tanstack/react-router';
import { CaseFilePage } from '../../features/client/case-file/case-file-page.tsx';

export const Route = createFileRoute('/_auth/case-file')({ component: CaseFilePage });
