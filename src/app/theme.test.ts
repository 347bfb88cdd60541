import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as chakraTheme from '@chakra-ui/react/theme';
import { describe, expect, it } from 'vitest';
import { fullSystem, recipes, slotRecipes } from './full-theme.ts';
import { shellRecipes, shellSlotRecipes, shellSystem } from './theme.ts';

/**
 * Every Chakra export the sources import, with the recipes it draws with. The theme carries only the recipes the
 * portal uses, and a component whose recipe is missing renders unstyled without any error: importing a component
 * this table does not know fails the test until it is added here (and its recipe, if any, to the theme).
 */
const recipesOf: Record<string, string[]> = {
  Alert: ['alert'],
  AspectRatio: [],
  Badge: ['badge'],
  Box: [],
  Button: ['button'],
  Card: ['card'],
  Center: [],
  ChakraProvider: [],
  Checkbox: ['checkbox', 'checkmark'],
  Circle: [],
  CloseButton: ['button'],
  Code: ['code'],
  Collapsible: ['collapsible'],
  DataList: ['dataList'],
  Dialog: ['dialog'],
  Drawer: ['drawer'],
  EmptyState: ['emptyState'],
  Field: ['field'],
  Fieldset: ['fieldset'],
  FileUpload: ['fileUpload'],
  Flex: [],
  Float: [],
  Grid: [],
  HStack: [],
  Heading: ['heading'],
  IconButton: ['button'],
  Image: [],
  Input: ['input'],
  InputGroup: ['inputAddon'],
  Link: ['link'],
  List: ['list'],
  Menu: ['menu'],
  NativeSelect: ['nativeSelect'],
  Popover: ['popover'],
  Portal: [],
  Progress: ['progress'],
  RadioGroup: ['radioGroup', 'radiomark'],
  SegmentGroup: ['segmentGroup'],
  Separator: ['separator'],
  SimpleGrid: [],
  Skeleton: ['skeleton'],
  SkipNavContent: [],
  SkipNavLink: ['skipNavLink'],
  Spacer: [],
  Spinner: ['spinner'],
  Stack: [],
  Switch: ['switch'],
  Table: ['table'],
  Tabs: ['tabs'],
  Text: [],
  Textarea: ['textarea'],
  Tooltip: ['tooltip'],
  VStack: [],
  VisuallyHidden: [],
  chakra: [],
  createSystem: [],
  defaultBaseConfig: [],
  defineConfig: [],
};

const srcDir = join(import.meta.dirname, '..');

/** What the screens reachable signed out import: they draw with the shell system alone (theme.ts). */
const shellFiles = [
  'app/provider.tsx',
  'app/not-found-page.tsx',
  'app/shell/message-bar.tsx',
  'app/shell/loading-overlay.tsx',
  'app/shell/quick-exit-button.tsx',
  'features/offline/update-prompt.tsx',
  'features/auth/login-page.tsx',
  'features/auth/auth-card.tsx',
  'features/auth/password-input.tsx',
  'features/auth/reset-password-dialog.tsx',
  'components/popup.tsx',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The value imports from '@chakra-ui/react' in these files (types left out). */
function importedChakraNames(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]+)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const part of m[1].split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

function missingRecipes(names: Set<string>, carried: object[]): string[] {
  const keys = new Set(carried.flatMap((r) => Object.keys(r)));
  return [...new Set([...names].flatMap((name) => recipesOf[name] ?? []))].filter((key) => !keys.has(key));
}

describe('the theme', () => {
  const imported = importedChakraNames(sourceFiles(srcDir));

  it('knows every Chakra component the sources import', () => {
    expect(imported.size).toBeGreaterThan(30);
    expect([...imported].filter((name) => !(name in recipesOf))).toEqual([]);
  });

  it('the full system carries the recipe of every imported component', () => {
    expect(missingRecipes(imported, [recipes, slotRecipes])).toEqual([]);
    const needed = [...imported].flatMap((name) => recipesOf[name] ?? []);
    expect(needed.filter((key) => !fullSystem.hasRecipe(key))).toEqual([]);
  });

  it('the shell system carries the recipes of the screens reachable signed out', () => {
    const shellImports = importedChakraNames(shellFiles.map((f) => join(srcDir, f)));
    expect(shellImports.has('Button')).toBe(true);
    expect(missingRecipes(shellImports, [shellRecipes, shellSlotRecipes])).toEqual([]);
    expect(shellSystem().hasRecipe('field')).toBe(true);
  });

  it("the shell is built from Chakra's own theme files: every token, the same CSS variable names", () => {
    const config = shellSystem()._config;
    expect(config.cssVarsPrefix).toBe(chakraTheme.cssVarsPrefix);
    expect(config.cssVarsRoot).toBe(chakraTheme.cssVarsRoot);
    for (const [group, tokens] of Object.entries(chakraTheme.tokens)) {
      expect(Object.keys(config.theme?.tokens?.[group as keyof typeof chakraTheme.tokens] ?? {}), group).toEqual(expect.arrayContaining(Object.keys(tokens)));
    }
    for (const [group, tokens] of Object.entries(chakraTheme.semanticTokens)) {
      const ours = config.theme?.semanticTokens?.[group as keyof typeof chakraTheme.semanticTokens] ?? {};
      expect(Object.keys(ours), group).toEqual(expect.arrayContaining(Object.keys(tokens)));
    }
    expect(Object.keys(config.theme?.textStyles ?? {})).toEqual(expect.arrayContaining(Object.keys(chakraTheme.textStyles)));
  });

  it('leaves out the recipes nothing uses, and the shell the ones its screens do not use', () => {
    expect(fullSystem.hasRecipe('accordion')).toBe(false);
    expect(fullSystem.hasRecipe('colorPicker')).toBe(false);
    expect(shellSystem().hasRecipe('table')).toBe(false);
  });
});
