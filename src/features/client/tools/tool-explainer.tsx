import { AspectRatio, Box, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { ClipboardPen, FileCheck2, Play, VideoOff } from 'lucide-react';
import { useState } from 'react';
import { explainerVideoUrl, type ToolDefinition } from '../../../../domain/tools.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import { ToolIcon, toolIcons } from '../../../components/tool-icon.tsx';
import { useOnline } from '../../../lib/pwa.ts';

/**
 * In place of the video while the tool has none (explainerVideoUrl in domain/tools.ts says when it has
 * one): its three steps from the catalogue, numbered and drawn. Readable offline, no request made.
 */
function HowItWorks({ tool }: { tool: ToolDefinition }) {
  const icons = [ClipboardPen, toolIcons[tool.icon], FileCheck2];
  return (
    <Box as="section" aria-labelledby={`how-${tool.id}`} bg="portal.backgroundAlt" rounded="l2" p={{ base: '4', md: '5' }} height="100%" data-testid="how-it-works">
      <Text as="h2" id={`how-${tool.id}`} fontWeight="semibold" mb="4">
        How {tool.header} works
      </Text>
      <Stack as="ol" gap="0" listStyleType="none" m="0" p="0">
        {tool.steps.map((step, i) => {
          const Icon = icons[i];
          const last = i === tool.steps.length - 1;
          return (
            <HStack as="li" key={step.title} align="stretch" gap="4">
              {/* The drawing: a numbered disc per step, joined to the next by a line. */}
              <Stack align="center" gap="0" flexShrink={0} aria-hidden="true">
                <Box position="relative" boxSize="12" rounded="full" bg="portal.white" color="brand.fg" borderWidth="1px" borderColor="brand.emphasized" display="flex" alignItems="center" justifyContent="center">
                  <Icon size={iconSize} />
                  <Box position="absolute" top="-1" insetEnd="-1" boxSize="5" rounded="full" bg="brand.fg" color="white" fontSize="xs" fontWeight="bold" display="flex" alignItems="center" justifyContent="center">
                    {i + 1}
                  </Box>
                </Box>
                {!last && <Box flex="1" width="2px" minHeight="4" bg="brand.emphasized" />}
              </Stack>
              <Box pb={last ? '0' : '5'} pt="1" minWidth="0">
                <Text fontWeight="semibold">
                  <Box as="span" srOnly>
                    Step {i + 1}:{' '}
                  </Box>
                  {step.title}
                </Text>
                <Text fontSize="sm">{step.text}</Text>
              </Box>
            </HStack>
          );
        })}
      </Stack>
    </Box>
  );
}

/**
 * A configured video: a poster drawn here (no request to the video site) and a play button. The frame is
 * made only when the button is pressed, so the page never loads a third-party player nobody asked for.
 */
function ExplainerVideo({ tool, url }: { tool: ToolDefinition; url: string }) {
  const online = useOnline();
  const [playing, setPlaying] = useState(false);
  return (
    <AspectRatio ratio={16 / 9} width="100%" rounded="l2" overflow="hidden" bg="brand.subtle">
      {playing ? (
        <iframe
          src={`${url}?autoplay=1`}
          title={`${tool.header} explainer video`}
          allow="accelerometer; autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
          style={{ border: 0 }}
        />
      ) : (
        <Stack align="center" justify="center" gap="3" color="brand.fg" data-testid="video-poster">
          <ToolIcon icon={tool.icon} size={40} />
          {online ? (
            <IconButton aria-label={`Play the ${tool.header} video`} colorPalette="brand" rounded="full" size="2xl" onClick={() => setPlaying(true)}>
              <Play aria-hidden="true" />
            </IconButton>
          ) : (
            <HStack gap="2" color="portal.text">
              <VideoOff size={iconSize} aria-hidden="true" />
              <Text>Video available when you are online</Text>
            </HStack>
          )}
          <Text fontWeight="semibold" color="portal.text">
            How {tool.header} works
          </Text>
        </Stack>
      )}
    </AspectRatio>
  );
}

/** The tool page's explainer: the video when one is configured, else the three steps. */
export function Explainer({ tool }: { tool: ToolDefinition }) {
  const url = explainerVideoUrl(tool);
  return url ? <ExplainerVideo tool={tool} url={url} /> : <HowItWorks tool={tool} />;
}
