import { Badge, HStack, Heading } from '@chakra-ui/react';

/** The title of an administrators' page, marked ADMIN so nobody mistakes it for an everyday screen. */
export function AdminHeading({ title }: { title: string }) {
  return (
    <HStack gap="3">
      <Heading as="h1" textStyle="h1">
        {title}
      </Heading>
      <Badge colorPalette="brand" variant="solid">
        ADMIN
      </Badge>
    </HStack>
  );
}
