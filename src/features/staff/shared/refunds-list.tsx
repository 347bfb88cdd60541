import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import { refundTypeLabel } from '../../../../domain/enums.ts';
import { formatDate } from '../../../../domain/format.ts';
import type { RefundRequest } from '../../../../domain/schemas.ts';
import { toolByBackendName } from '../../../../domain/tools.ts';
import { RequestLink } from './links.tsx';
import { EmptyText } from './section-card.tsx';

/** Refund requests the client sent; on the client page each names the request it is about. */
export function RefundsList({ refunds, showRequest = false }: { refunds: RefundRequest[]; showRequest?: boolean }) {
  if (refunds.length === 0) return <EmptyText>No refund requests.</EmptyText>;
  return (
    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Refund requests">
      {refunds.map((refund) => (
        <Box as="li" key={refund.id} py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }}>
          <HStack gap="2" wrap="wrap">
            <Badge colorPalette={refund.refundRequestType === 'FULL' ? 'red' : 'orange'} variant="subtle">
              {refundTypeLabel[refund.refundRequestType]}
            </Badge>
            {showRequest && (
              <RequestLink requestId={refund.processId}>{toolByBackendName(refund.tool)?.header ?? refund.tool}</RequestLink>
            )}
            <Text fontSize="xs" color="fg.muted">
              {formatDate(refund.createdAt)}
            </Text>
          </HStack>
          <Text mt="1" whiteSpace="pre-wrap" wordBreak="break-word">
            {refund.reason}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}
