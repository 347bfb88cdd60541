import { Badge, Box, Field, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../domain/format.ts';
import { type TrackingLink, trackingPath } from '../../domain/tracking.ts';
import { CopyField } from './copy-field.tsx';

/** The address to hand out: the portal's own host, so it works wherever the portal is served from. */
function trackingAddress(slug: string): string {
  return `${window.location.origin}${trackingPath(slug)}`;
}

function countsText(link: TrackingLink): string {
  const visits = link.visits === 1 ? '1 visit' : `${link.visits} visits`;
  const last = link.lastVisitAt ? ` · last ${formatDateTime(link.lastVisitAt)}` : '';
  const previews = link.previews > 0 ? ` · ${link.previews} link preview${link.previews === 1 ? '' : 's'}` : '';
  return `${visits}${last}${previews}`;
}

/** One tracking link: its label, the address with a copy button, and how often it was opened. */
export function TrackingLinkItem({ link, children }: { link: TrackingLink; children?: ReactNode }) {
  return (
    <Box as="li" py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }} data-testid="tracking-link">
      <Stack gap="1">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="semibold" wordBreak="break-word">
            {link.label}
          </Text>
          {link.disabled && (
            <Badge colorPalette="gray" variant="subtle">
              Disabled
            </Badge>
          )}
        </HStack>
        <Field.Root>
          <Field.Label srOnly>Address of {link.label}</Field.Label>
          <CopyField value={trackingAddress(link.slug)} copyLabel={`Copy the address of ${link.label}`} />
        </Field.Root>
        <Text fontSize="sm" color="fg.muted" data-testid="tracking-link-counts">
          {countsText(link)}
        </Text>
        {children}
      </Stack>
    </Box>
  );
}
