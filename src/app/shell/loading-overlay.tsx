import { Box, Circle, Image, Spinner } from '@chakra-ui/react';
import { useLoading } from '../../lib/ui-state.ts';
import { productName } from '../../components/product-name.ts';

/** Spec section 9. */
const spinnerSizePx = 165;
const logoCirclePx = 150;

/**
 * Full-screen overlay for the global loading flag. With 'full' coverage it is opaque so a
 * half-built page never shows; otherwise the page stays visible behind it.
 */
export function LoadingOverlay() {
  const { loading, coverage } = useLoading();
  if (!loading) return null;
  return (
    <Box
      data-testid="loading-overlay"
      data-coverage={coverage}
      role="status"
      aria-live="polite"
      aria-label="Loading"
      position="fixed"
      inset="0"
      // Above drawers, dialogs and the message bar: while it shows, nothing underneath is usable.
      zIndex="max"
      display="flex"
      alignItems="center"
      justifyContent="center"
      bg={coverage === 'full' ? 'portal.background' : 'rgba(246, 249, 252, 0.5)'}
    >
      <Box position="relative" width={`${spinnerSizePx}px`} height={`${spinnerSizePx}px`}>
        <Spinner
          position="absolute"
          inset="0"
          css={{ '--spinner-size': `${spinnerSizePx}px` }}
          borderWidth="3px"
          color="brand.solid"
          animationDuration="1s"
        />
        <Circle
          size={`${logoCirclePx}px`}
          position="absolute"
          top="50%"
          left="50%"
          transform="translate(-50%, -50%)"
          bg="portal.white"
          borderWidth="1px"
          borderColor="portal.border"
        >
          <Image src="/logo.svg" alt={productName} boxSize="88px" />
        </Circle>
      </Box>
    </Box>
  );
}
