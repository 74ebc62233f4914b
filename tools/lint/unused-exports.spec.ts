import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ExportScanError, unusedExports } from './unused-exports';

const REPO = join(__dirname, '..', '..');

describe('unusedExports', () => {
  let root: string;
  const write = (files: Record<string, string>): void => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'unused-exports-'));
    write({
      // With a comment, as tsconfig files may hold.
      'tsconfig.base.json': `// the libraries\n${JSON.stringify({
        compilerOptions: { paths: { '@x/a': ['./libs/a/src/index.ts'], '@x/a/testing': ['./libs/a/src/testing.ts'], '@x/b': ['./libs/b/src/index.ts'] } },
      })}`,
      'libs/a/src/index.ts': [
        "export { used, onlyInside, type Shape } from './lib/a';",
        "export { documented as shown } from './lib/a';",
        'export const declared = 1;',
        'export interface Typed {}',
        'export type Aliased = string;',
      ].join('\n'),
      'libs/a/src/testing.ts': "export { helper, spare } from './lib/helpers.testing';",
      // Its own spec imports it through the library's path: that is no use from outside.
      'libs/a/src/lib/a.spec.ts': "import { onlyInside } from '@x/a';",
      'libs/a/README.md': "# a\n\n```ts\nimport { shown } from '@x/a';\n```\n\n`declared` is named here, but not imported by an example.\n",
      'apps/app/src/main.ts': [
        "import { used as renamed } from '@x/a';",
        "type Kept = import('@x/a').Shape;",
        "export type { Typed } from '@x/a';",
        "const later = () => import('@x/b');",
      ].join('\n'),
      'apps/app/src/main.spec.ts': "import type { Aliased } from '@x/a';",
      // A library that re-exports another's name uses it; its own export is then checked in turn.
      'libs/b/src/index.ts': "export { helper } from '@x/a/testing';",
    });
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("lists the names an entry point exports that no file outside its library imports, and keeps its README's public API", () => {
    expect(unusedExports(root)).toEqual([
      { entry: 'libs/a/src/index.ts', name: 'onlyInside' },
      { entry: 'libs/a/src/index.ts', name: 'declared' },
      { entry: 'libs/a/src/testing.ts', name: 'spare' },
    ]);
  });

  it('counts a name as used once a file outside imports it, and a library as used whole by a dynamic import', () => {
    write({ 'tools/x.ts': "import { onlyInside, declared } from '@x/a';\nimport { spare } from '@x/a/testing';" });

    expect(unusedExports(root)).toEqual([]);
  });

  it('refuses an entry point that exports * from a module, whose names it cannot list', () => {
    write({ 'libs/b/src/index.ts': "export * from './lib/b';" });

    const refusal = (() => {
      try {
        return unusedExports(root);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ExportScanError);
    expect(refusal).toMatchObject({
      code: 'STAR_EXPORT',
      message: 'libs/b/src/index.ts exports * from a module: name what it exports, so that each name can be checked for use',
    });
  });
});

describe("this tree's libraries", () => {
  it('export no name that no file outside them imports (a name a README imports in its example excepted)', () => {
    expect(unusedExports(REPO)).toEqual([]);
  });
});
