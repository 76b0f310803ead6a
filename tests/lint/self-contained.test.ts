import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository explains itself: a clone alone must hold the design it cites. Nothing may point
// outside it (the sibling folder of the specification and design documents the project was started
// from, or those documents by name);
// the product, its architecture and its decisions are under docs/.

const root = fileURLToPath(new URL('../..', import.meta.url));
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|json|md|yaml|yml|sql|sh|conf|html|css)$|(^|\/)(Dockerfile|run)$/;
const OUTSIDE = [/\.\.\/shared\b/, /\bSPEC\.md\b/, /\bDESIGN\.md\b/, /\bSPEC (section )?\d\b/, /\bDESIGN\.md section\b/];

const trackedTextFiles = (): string[] =>
  execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && TEXT.test(file) && file !== 'pnpm-lock.yaml' && existsSync(join(root, file)));

/** Each `file:line` citing something outside the repository. */
function outsideReferences(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (OUTSIDE.some((pattern) => pattern.test(line))) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  return found;
}

describe('the repository explains itself', () => {
  it('cites nothing outside itself (the sibling folder, SPEC.md, DESIGN.md): docs/ holds the design', () => {
    // This file names the patterns it looks for; it is the one exception.
    const files = trackedTextFiles().filter((file) => file !== 'tests/lint/self-contained.test.ts');
    expect(files.length).toBeGreaterThan(300);
    expect(outsideReferences(files)).toEqual([]);
  });

  it('finds such a reference when one is written', () => {
    expect(outsideReferences(['tests/lint/self-contained.test.ts']).length).toBeGreaterThan(0);
  });

  it('holds the product, the architecture and the decisions', () => {
    for (const doc of ['docs/product.md', 'docs/architecture.md', 'docs/decisions/README.md', 'CONTRIBUTING.md', '.editorconfig'])
      expect(existsSync(join(root, doc)), doc).toBe(true);
  });
});
