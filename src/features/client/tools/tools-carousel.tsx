import { Box, Card, HStack, IconButton, Link as ChakraLink, SimpleGrid, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { tools } from '../../../../domain/tools.ts';
import { useIsMobile } from '../../../lib/ui-state.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import { ToolIcon } from '../../../components/tool-icon.tsx';

const DESKTOP_VISIBLE = 3;

/** "Get to know our tools": one card at a time on phones, three on wider screens. */
export function ToolsCarousel() {
  const isMobile = useIsMobile();
  const visible = isMobile ? 1 : DESKTOP_VISIBLE;
  const lastStart = Math.max(0, tools.length - visible);
  const [rawStart, setStart] = useState(0);
  // Growing the window can leave the start past the end; clamp rather than reset in an effect.
  const start = Math.min(rawStart, lastStart);
  const shown = tools.slice(start, start + visible);

  return (
    <Box as="section" aria-labelledby="tools-carousel-title" aria-roledescription="carousel">
      <HStack justify="space-between" mb="3">
        <Text as="h2" id="tools-carousel-title" fontSize="1.125rem" fontWeight="semibold">
          Get to know our tools
        </Text>
        <HStack gap="2">
          <IconButton aria-label="Previous tool" variant="outline" size="sm" disabled={start === 0} onClick={() => setStart(start - 1)}>
            <ChevronLeft size={iconSize} aria-hidden="true" />
          </IconButton>
          <IconButton aria-label="Next tool" variant="outline" size="sm" disabled={start >= lastStart} onClick={() => setStart(start + 1)}>
            <ChevronRight size={iconSize} aria-hidden="true" />
          </IconButton>
        </HStack>
      </HStack>
      <SimpleGrid columns={visible} gap="4" aria-live="polite">
        {shown.map((tool) => (
          <Card.Root key={tool.id} variant="outline" bg="portal.white" aria-roledescription="slide" aria-label={tool.header}>
            <Card.Body gap="3">
              <HStack gap="3">
                <Box bg="brand.subtle" color="brand.fg" rounded="l2" p="2" display="flex">
                  <ToolIcon icon={tool.icon} />
                </Box>
                <Text as="h3" fontWeight="semibold" fontSize="md">
                  {tool.header}
                </Text>
              </HStack>
              <Text color="fg.muted" flex="1">
                {tool.shortExplanation}
              </Text>
              <ChakraLink asChild color="brand.fg" fontWeight="semibold" alignSelf="flex-start">
                <Link to="/tool/$toolname" params={{ toolname: tool.id }} state={{ toolId: tool.id }} aria-label={`Learn more about ${tool.header}`}>
                  Learn more
                  <ChevronRight size={16} aria-hidden="true" />
                </Link>
              </ChakraLink>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Box>
  );
}
