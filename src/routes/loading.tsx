import { createFileRoute } from '@tanstack/react-router';
import { LoadingPage } from '../app/loading-page.tsx';

export const Route = createFileRoute('/loading')({ component: LoadingPage });
