import { createFileRoute, notFound } from '@tanstack/react-router';
import { texts } from '../../../domain/texts.ts';
import { RequestsTable } from '../../features/client/requests/requests-table.tsx';
import { ToolPage } from '../../features/client/tools/tool-page.tsx';
import { readToolSearch } from '../../lib/deep-links.ts';

export const Route = createFileRoute('/_auth/tool/$toolname')({
  // ?request=<id> opens that request's details (a notification's link).
  validateSearch: readToolSearch,
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
  const { request } = Route.useSearch();
  const navigate = Route.useNavigate();
  // Keyed: another tool's page starts closed, with no purchase draft of the previous one.
  return (
    <ToolPage
      key={tool.id}
      tool={tool}
      requests={
        <RequestsTable
          title={tool.header}
          tool={tool}
          emptyText={texts.noToolRequests}
          openRequestId={request}
          // Closing the details leaves the link, so Back and a reload do not open them again.
          onLinkedRequestClosed={() => void navigate({ search: {}, replace: true })}
        />
      }
    />
  );
}
