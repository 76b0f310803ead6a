import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The workspace's own eslint.config.js on snippets linted as if they were files of the apps: the
// import boundaries of docs/architecture.md and the typed and hooks rules fire where they should.

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

// Real files (the typed rules need a file their tsconfig includes); their text is replaced by the snippet.
const AUDIENCES_FEATURE_FILE = 'mfe-audiences/src/features/audiences/components/AudienceTitle.tsx';
const REMOTE_ROOT_FILE = 'mfe-audiences/src/App.tsx';
const SHELL_FILE = 'shell/src/App.tsx';

/** The rule ids reported for `code` linted as `file`. */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${file}` });
  const fatal = result!.messages.filter((message) => message.fatal);
  if (fatal.length) throw new Error(fatal.map((message) => message.message).join('\n'));
  return result!.messages.map((message) => message.ruleId ?? '');
}

const imports = (specifier: string) => `import * as other from '${specifier}';\nexport const used = other;\n`;

describe('feature boundaries inside a remote', { timeout: 60_000 }, () => {
  it("rejects a feature importing another feature's internals", async () => {
    expect(await ruleIds(AUDIENCES_FEATURE_FILE, imports('../../import-contacts/api/keys'))).toContain('import-x/no-restricted-paths');
  });

  it('lets a feature import its own files and the remote’s shared components', async () => {
    expect(await ruleIds(AUDIENCES_FEATURE_FILE, imports('../api/keys'))).toEqual([]);
    expect(await ruleIds(AUDIENCES_FEATURE_FILE, imports('../../../components/AudienceNotFound'))).toEqual([]);
  });
});

describe('boundaries between the frontends', { timeout: 60_000 }, () => {
  it('rejects a remote importing another remote or the shell', async () => {
    expect(await ruleIds(REMOTE_ROOT_FILE, imports('../../mfe-templates/src/App'))).toContain('import-x/no-restricted-paths');
    expect(await ruleIds(REMOTE_ROOT_FILE, imports('../../shell/src/ShellContext'))).toContain('import-x/no-restricted-paths');
    expect(await ruleIds(REMOTE_ROOT_FILE, imports('@mailroom/mfe-templates'))).toContain('no-restricted-imports');
  });

  it('rejects the shell importing a remote', async () => {
    expect(await ruleIds(SHELL_FILE, imports('../../mfe-audiences/src/App'))).toContain('import-x/no-restricted-paths');
    expect(await ruleIds(SHELL_FILE, imports('mfe_audiences/App'))).toContain('no-restricted-imports');
  });

  it('lets a frontend reach shared code by package name only', async () => {
    expect(await ruleIds(REMOTE_ROOT_FILE, imports('@mailroom/ui'))).toEqual([]);
    expect(await ruleIds(REMOTE_ROOT_FILE, imports('react'))).toEqual([]);
    expect(await ruleIds(REMOTE_ROOT_FILE, imports('../../packages/ui/src/index'))).toContain('import-x/no-restricted-paths');
  });
});

describe('typed and hooks rules', { timeout: 60_000 }, () => {
  it('rejects a promise nobody handles', async () => {
    const code = 'export function start(load: () => Promise<void>) {\n  load();\n}\n';
    expect(await ruleIds(REMOTE_ROOT_FILE, code)).toContain('@typescript-eslint/no-floating-promises');
  });

  it('rejects a hook called conditionally', async () => {
    const code =
      "import { useState } from 'react';\nexport function Box({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n";
    expect(await ruleIds(REMOTE_ROOT_FILE, code)).toContain('react-hooks/rules-of-hooks');
  });
});
