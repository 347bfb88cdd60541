import { Text } from '@chakra-ui/react';

/** Why an outbox edit was not saved (the kind's schema refused it), under the feature's form. */
export function EditRefused({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Text color="red.600" mt="3" role="alert">
      {text}
    </Text>
  );
}
