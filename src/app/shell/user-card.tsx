import { Box, HStack, Text } from '@chakra-ui/react';
import { SettingsLink } from '../../components/settings-link.tsx';

export interface UserCardProps {
  displayName: string;
}

export function UserCard({ displayName }: UserCardProps) {
  return (
    <HStack
      as="section"
      aria-label="User"
      gap="3"
      bg="portal.white"
      borderWidth="1px"
      borderColor="portal.border"
      borderRadius="l3"
      px="5"
      py="4"
    >
      <Box flex="1" minWidth="0">
        <Text color="fg.muted">Welcome back</Text>
        <Text as="p" fontWeight="semibold" fontSize="md" color="portal.text" truncate>
          {displayName}
        </Text>
      </Box>
      <SettingsLink />
    </HStack>
  );
}
