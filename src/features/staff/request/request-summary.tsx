import { Box, Card, Code, HStack, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { RequestFile } from '../../../../domain/staff.ts';
import { requestName, toolByBackendName } from '../../../../domain/tools.ts';
import { RequestStatusBadge } from '../../../components/request-status-badge.tsx';
import { ToolIcon } from '../../../components/tool-icon.tsx';
import { yesNo } from '../shared/format.ts';
import { ClientLink } from '../shared/links.tsx';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box borderWidth="1px" borderColor="portal.border" borderRadius="l2" px="3" py="2" bg="portal.background">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontWeight="semibold" data-testid={testId}>
        {value}
      </Text>
    </Box>
  );
}

/** The request at a glance: which tool, whose, where it stands and where the money stands. */
export function RequestSummary({ file }: { file: RequestFile }) {
  const { request, client } = file;
  const tool = toolByBackendName(request.productRequestType);
  return (
    <Card.Root variant="elevated" bg="portal.white">
      <Card.Body>
        <Stack gap="4">
          <HStack justify="space-between" align="start" gap="3" wrap="wrap">
            <Stack gap="1" minWidth="0">
              <HStack gap="2">
                {tool && (
                  <Box color="brand.fg" flexShrink={0}>
                    <ToolIcon icon={tool.icon} />
                  </Box>
                )}
                <Heading as="h1" textStyle="h1">
                  {requestName(request)}
                </Heading>
                <RequestStatusBadge status={request.status} />
              </HStack>
              <Text fontSize="sm" color="fg.muted">
                Client <ClientLink uid={client.uid}>{client.name || client.email}</ClientLink>
                {client.name && ` · ${client.email}`} · Ordered {formatDate(request.Created_Time)}
              </Text>
              <Text fontSize="xs" color="fg.muted">
                Request id{' '}
                <Code size="sm" variant="surface" wordBreak="break-all">
                  {request.id}
                </Code>
              </Text>
            </Stack>
          </HStack>
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
            <Figure label="Total" value={formatMoney(request.totalAmount)} testId="request-total" />
            <Figure label="Paid" value={formatMoney(request.paid)} testId="request-paid" />
            <Figure label="Left to pay" value={formatMoney(request.leftToPay)} testId="request-left" />
            <Figure label="Contract signed" value={yesNo(request.contractSigned)} testId="request-contract" />
          </SimpleGrid>
          {request.status === 'Rejected' && (
            <Text>
              <Text as="span" fontWeight="medium">
                Reason for rejection:
              </Text>{' '}
              {request.rejectionReason || '—'}
            </Text>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
