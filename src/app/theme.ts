import '@fontsource-variable/plus-jakarta-sans';
import { type RecipeDefinition, type SlotRecipeConfig, type SystemConfig, createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
// Chakra's theme files one by one (the `@chakra-theme/` alias, vite.config.ts), not its theme index: the index imports
// every recipe, and whatever the first screen's code can reach is on the first screen's download (decision 020).
import { breakpoints } from '@chakra-theme/breakpoints.js';
import { globalCss } from '@chakra-theme/global-css.js';
import { layerStyles } from '@chakra-theme/layer-styles.js';
import { animationStyles } from '@chakra-theme/motion-styles.js';
import { alertSlotRecipe } from '@chakra-theme/recipes/alert.js';
import { buttonRecipe } from '@chakra-theme/recipes/button.js';
import { cardSlotRecipe } from '@chakra-theme/recipes/card.js';
import { dialogSlotRecipe } from '@chakra-theme/recipes/dialog.js';
import { fieldSlotRecipe } from '@chakra-theme/recipes/field.js';
import { headingRecipe } from '@chakra-theme/recipes/heading.js';
import { inputAddonRecipe } from '@chakra-theme/recipes/input-addon.js';
import { inputRecipe } from '@chakra-theme/recipes/input.js';
import { linkRecipe } from '@chakra-theme/recipes/link.js';
import { spinnerRecipe } from '@chakra-theme/recipes/spinner.js';
import { semanticColors } from '@chakra-theme/semantic-tokens/colors.js';
import { semanticRadii } from '@chakra-theme/semantic-tokens/radii.js';
import { semanticShadows } from '@chakra-theme/semantic-tokens/shadows.js';
import { textStyles } from '@chakra-theme/text-styles.js';
import { animations } from '@chakra-theme/tokens/animations.js';
import { aspectRatios } from '@chakra-theme/tokens/aspect-ratios.js';
import { blurs } from '@chakra-theme/tokens/blurs.js';
import { borders } from '@chakra-theme/tokens/borders.js';
import { colors } from '@chakra-theme/tokens/colors.js';
import { cursor } from '@chakra-theme/tokens/cursor.js';
import { durations } from '@chakra-theme/tokens/durations.js';
import { easings } from '@chakra-theme/tokens/easings.js';
import { fontSizes } from '@chakra-theme/tokens/font-sizes.js';
import { fontWeights } from '@chakra-theme/tokens/font-weights.js';
import { fonts } from '@chakra-theme/tokens/fonts.js';
import { keyframes } from '@chakra-theme/tokens/keyframes.js';
import { letterSpacings } from '@chakra-theme/tokens/letter-spacing.js';
import { lineHeights } from '@chakra-theme/tokens/line-heights.js';
import { radii } from '@chakra-theme/tokens/radius.js';
import { sizes } from '@chakra-theme/tokens/sizes.js';
import { spacing } from '@chakra-theme/tokens/spacing.js';
import { zIndices } from '@chakra-theme/tokens/z-indices.js';
import { aboveQuickExit, messageBarSpaceVar, palette } from '../components/theme-tokens.ts';

const fontStack = '"Plus Jakarta Sans Variable", sans-serif';

/**
 * Chakra's whole default theme would be on every screen's first load, the sign-in screen's included.
 * The portal builds its style system from only the recipes it uses, in two steps: the screens anyone can open
 * signed out (sign-in, not found, the message bar, the loading overlay, "Leave quickly") draw with these few, and
 * everything else waits for the full set (full-theme.ts) before it renders (app-system.ts). A component whose
 * recipe is missing renders unstyled without an error, so `theme.test.ts` checks both lists against the imports.
 */
export const shellRecipes = {
  button: buttonRecipe,
  heading: headingRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  spinner: spinnerRecipe,
};

export const shellSlotRecipes = {
  alert: alertSlotRecipe,
  card: cardSlotRecipe,
  // The sign-in screen's Reset Your Password.
  dialog: dialogSlotRecipe,
  field: fieldSlotRecipe,
};

/** Chakra's default theme (tokens, text and layer styles, global CSS) with only the given recipes. */
function foundation(recipes: RecipeMap, slotRecipes: SlotRecipeMap) {
  return defineConfig({
    preflight: true,
    // Chakra's own theme sets these two; theme.test.ts checks they still match.
    cssVarsPrefix: 'chakra',
    cssVarsRoot: ':where(html, .chakra-theme)',
    globalCss,
    theme: {
      breakpoints,
      keyframes,
      tokens: {
        aspectRatios,
        animations,
        blurs,
        borders,
        colors,
        durations,
        easings,
        fonts,
        fontSizes,
        fontWeights,
        letterSpacings,
        lineHeights,
        radii,
        spacing,
        sizes,
        zIndex: zIndices,
        cursor,
      },
      semanticTokens: {
        colors: semanticColors,
        shadows: semanticShadows,
        radii: semanticRadii,
      },
      textStyles,
      layerStyles,
      animationStyles,
      recipes,
      slotRecipes,
    },
  });
}

const config = defineConfig({
  globalCss: {
    // Scrolling something into view (and keyboard focus moving down the page) stops short of the message bar and,
    // on phones, of "Leave quickly" (12px up, 2.25rem high) which sits over the content's bottom left corner.
    html: {
      scrollPaddingBottom: {
        base: `max(var(${messageBarSpaceVar}, 0px), ${aboveQuickExit})`,
        md: `var(${messageBarSpaceVar}, 0px)`,
      },
    },
    body: {
      fontFamily: 'body',
      fontSize: '0.875rem',
      color: 'portal.text',
      bg: 'portal.background',
    },
    h1: {
      fontSize: '1.125rem',
      fontWeight: 'semibold',
    },
    // Chakra draws placeholders in fg.muted at 80% opacity (about 3.3:1 here); hints such as DD/MM/YYYY must be
    // readable, so they take the full muted colour (4.5:1 or more on white).
    '*::placeholder, *[data-placeholder]': {
      color: 'fg.muted',
    },
  },
  theme: {
    tokens: {
      fonts: {
        body: { value: fontStack },
        heading: { value: fontStack },
      },
      colors: {
        brand: {
          50: { value: '#ECF2FF' },
          100: { value: '#DCE6FF' },
          200: { value: '#C1D3FF' },
          300: { value: '#9BB8FF' },
          400: { value: '#759AFF' },
          500: { value: '#5D87FF' },
          600: { value: '#4273FC' },
          700: { value: '#2F5FE6' },
          800: { value: '#264CB8' },
          900: { value: '#1F3D8F' },
          950: { value: '#142659' },
        },
        portal: {
          text: { value: palette.text },
          green: { value: palette.green },
          white: { value: palette.white },
          background: { value: palette.background },
          backgroundAlt: { value: palette.backgroundAlt },
          blue: { value: palette.blue },
          border: { value: palette.border },
          nav: { value: palette.nav },
          muted: { value: palette.muted },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          // White text on the spec's #5D87FF is 3.3:1, below the 4.5:1 minimum for text; buttons, selected tabs and
          // the current menu item take the palette's 700 (5.4:1). #5D87FF stays for borders, focus rings and accents.
          solid: { value: '{colors.brand.700}' },
          contrast: { value: '{colors.white}' },
          // 700 rather than 500 for text: #5D87FF on white is below the 4.5:1 text contrast minimum.
          fg: {
            value: {
              _light: '{colors.brand.700}',
              _dark: '{colors.brand.300}',
            },
          },
          muted: {
            value: {
              _light: '{colors.brand.100}',
              _dark: '{colors.brand.900}',
            },
          },
          subtle: {
            value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' },
          },
          emphasized: {
            value: {
              _light: '{colors.brand.200}',
              _dark: '{colors.brand.800}',
            },
          },
          focusRing: { value: '{colors.brand.500}' },
          border: {
            value: {
              _light: '{colors.brand.500}',
              _dark: '{colors.brand.400}',
            },
          },
        },
        // The whole UI reads the default fg/border tokens, so pointing them at the named palette
        // keeps Chakra components and hand-written boxes the same colour.
        fg: {
          DEFAULT: {
            value: {
              _light: '{colors.portal.text}',
              _dark: '{colors.gray.50}',
            },
          },
          muted: {
            value: {
              _light: '{colors.portal.muted}',
              _dark: '{colors.gray.400}',
            },
          },
        },
        border: {
          DEFAULT: {
            value: {
              _light: '{colors.portal.border}',
              _dark: '{colors.gray.800}',
            },
          },
        },
      },
      radii: {
        l2: { value: '7px' },
        l3: { value: '7px' },
      },
    },
    textStyles: {
      h1: {
        value: {
          fontSize: '1.125rem',
          lineHeight: '1.6',
          fontWeight: 'semibold',
        },
      },
      body: { value: { fontSize: '0.875rem', lineHeight: '1.5' } },
    },
    slotRecipes: {
      card: {
        slots: [...(cardSlotRecipe.slots ?? [])],
        // Panels are flat in this design: the outline is the only separation.
        variants: {
          variant: {
            elevated: { root: { boxShadow: 'none', borderWidth: '1px' } },
          },
        },
      },
    },
  },
});

type RecipeMap = Record<string, RecipeDefinition>;
type SlotRecipeMap = Record<string, SlotRecipeConfig>;

/** A Chakra system of the portal's tokens and styles with these recipes, plus overrides of some of them. */
export function portalSystem(recipes: RecipeMap, slotRecipes: SlotRecipeMap, overrides: SystemConfig = {}) {
  return createSystem(defaultBaseConfig, foundation(recipes, slotRecipes), config, overrides);
}

let shell: ReturnType<typeof portalSystem> | undefined;

/**
 * The system the first screen draws with, until the full one has loaded; built on first use, since building a
 * system costs tens of milliseconds and a signed-in start draws with the full one from its first render.
 */
export function shellSystem() {
  shell ??= portalSystem(shellRecipes, shellSlotRecipes);
  return shell;
}
