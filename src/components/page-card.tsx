import { Card, Heading, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A page's main card: its h1, an optional line of introduction, then the content (a form, tabs). */
export function PageCard({ title, intro, maxWidth, children }: { title: string; intro?: string; maxWidth?: string; children: ReactNode }) {
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth={maxWidth}>
      <Card.Header>
        <Heading as="h1" textStyle="h1">
          {title}
        </Heading>
        {intro && <Text color="fg.muted">{intro}</Text>}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
