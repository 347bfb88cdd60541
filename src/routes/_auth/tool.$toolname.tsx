import { createFileRoute, notFound } from '@tanstack/react-router';
import { findTool } from '../../../domain/tools.ts';
import { ToolPage } from '../../features/requests/tool-page.tsx';

export const Route = createFileRoute('/_auth/tool/$toolname')({
  beforeLoad: ({ params }) => {
    if (!findTool(params.toolname)) throw notFound();
  },
  component: ToolRoute,
});

function ToolRoute() {
  const { toolname } = Route.useParams();
  return <ToolPage toolId={toolname} />;
}
