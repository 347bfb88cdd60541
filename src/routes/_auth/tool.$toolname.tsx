import { createFileRoute, notFound } from '@tanstack/react-router';
import { texts } from '../../../domain/texts.ts';
import { RequestsTable } from '../../features/client/requests/requests-table.tsx';
import { ToolPage } from '../../features/client/tools/tool-page.tsx';

export const Route = createFileRoute('/_auth/tool/$toolname')({
  // The catalogue (and the zod schemas of its forms) loads with the first tool page, not with every screen.
  beforeLoad: async ({ params }) => {
    const { findTool } = await import('../../../domain/tools.ts');
    const tool = findTool(params.toolname);
    if (!tool) throw notFound();
    return { tool };
  },
  component: ToolRoute,
});

function ToolRoute() {
  const { tool } = Route.useRouteContext();
  // Keyed: another tool's page starts closed, with no purchase draft of the previous one.
  return <ToolPage key={tool.id} tool={tool} requests={<RequestsTable title={tool.header} tool={tool} emptyText={texts.noToolRequests} />} />;
}
