import { defineConfig } from '@chakra-ui/react';
import * as base from '@chakra-ui/react/theme';
import { portalSystem, shellRecipes, shellSlotRecipes } from './theme.ts';

/** Every recipe the portal draws with (see theme.ts): loaded before any screen past the sign-in screen renders. */
export const recipes = {
  ...shellRecipes,
  badge: base.badgeRecipe,
  checkmark: base.checkmarkRecipe,
  code: base.codeRecipe,
  radiomark: base.radiomarkRecipe,
  separator: base.separatorRecipe,
  skeleton: base.skeletonRecipe,
  skipNavLink: base.skipNavLinkRecipe,
  textarea: base.textareaRecipe,
};

export const slotRecipes = {
  ...shellSlotRecipes,
  checkbox: base.checkboxSlotRecipe,
  collapsible: base.collapsibleSlotRecipe,
  dataList: base.dataListSlotRecipe,
  drawer: base.drawerSlotRecipe,
  emptyState: base.emptyStateSlotRecipe,
  fieldset: base.fieldsetSlotRecipe,
  fileUpload: base.fileUploadSlotRecipe,
  list: base.listSlotRecipe,
  menu: base.menuSlotRecipe,
  nativeSelect: base.nativeSelectSlotRecipe,
  popover: base.popoverSlotRecipe,
  progress: base.progressSlotRecipe,
  radioGroup: base.radioGroupSlotRecipe,
  segmentGroup: base.segmentGroupSlotRecipe,
  switch: base.switchSlotRecipe,
  table: base.tableSlotRecipe,
  tabs: base.tabsSlotRecipe,
  tooltip: base.tooltipSlotRecipe,
};

/**
 * Tabs get the selected look the spec asks for (solid blue accent, white text) in every variant,
 * so a feature does not have to remember which variant to pick to stay on-brand.
 */
const selectedAccent = {
  bg: 'colorPalette.solid',
  color: 'colorPalette.contrast',
  shadow: 'none',
} as const;

/**
 * The merge in createSystem combines arrays index by index, so an override must list exactly the
 * default slots; reading them from the recipe keeps that true across Chakra upgrades.
 */
function slotsOf(recipe: keyof typeof slotRecipes): string[] {
  return [...(slotRecipes[recipe].slots ?? [])];
}

const overrides = defineConfig({
  theme: {
    slotRecipes: {
      tabs: {
        slots: slotsOf('tabs'),
        base: {
          root: {
            colorPalette: 'brand',
            '--tabs-indicator-bg': 'colors.colorPalette.solid',
            '--tabs-indicator-shadow': 'none',
          },
          trigger: { textTransform: 'none' },
        },
        variants: {
          variant: {
            line: { trigger: { _selected: selectedAccent } },
            subtle: { trigger: { _selected: selectedAccent } },
            enclosed: { trigger: { _selected: selectedAccent } },
            outline: { trigger: { _selected: selectedAccent } },
            plain: { trigger: { _selected: selectedAccent } },
          },
        },
      },
      segmentGroup: {
        slots: slotsOf('segmentGroup'),
        base: {
          root: {
            colorPalette: 'brand',
            '--segment-indicator-bg': 'colors.colorPalette.solid',
            '--segment-indicator-shadow': 'none',
          },
          item: {
            textTransform: 'none',
            _checked: { color: 'colorPalette.contrast' },
          },
        },
      },
      switch: {
        slots: slotsOf('switch'),
        base: { root: { colorPalette: 'brand' } },
      },
    },
  },
});

/** The Chakra system every signed-in screen draws with. */
export const fullSystem = portalSystem(recipes, slotRecipes, overrides);
