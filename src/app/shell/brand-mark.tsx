import { HStack, Image, Text } from '@chakra-ui/react';
import { productName } from '../../components/product-name.ts';

export function BrandMark({ compact = false }: { compact?: boolean }) {
  return (
    <HStack gap="2" px={compact ? '0' : '3'} py="4" justifyContent={compact ? 'center' : 'flex-start'}>
      <Image src="/logo.svg" alt={compact ? productName : ''} boxSize="32px" />
      {!compact && (
        // Two short lines fit the 240px sidebar; one line cut the name off.
        <Text fontWeight="bold" fontSize="sm" lineHeight="1.2" color="portal.text" lineClamp={2}>
          {productName}
        </Text>
      )}
    </HStack>
  );
}
