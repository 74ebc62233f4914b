// What a library exports that no file outside it imports. A library's entry points are its import paths in
// tsconfig.base.json (`@arvo-rca/x` and `@arvo-rca/x/testing`); a name counts as used when a file of another
// project (a lib, an app, the tools, a spec among them) imports or re-exports it from that path. The public
// API a library's README shows in its code examples (`import { … } from '@arvo-rca/x'`) is kept even when
// nothing here imports it: it is there for solver builders. Read with TypeScript's parser alone, without
// a type check, and only the files that name an import path.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import ts from 'typescript';
import { CodedError } from '@arvo-rca/common';

type ExportScanErrorCode = 'NO_PATHS' | 'STAR_EXPORT';
export class ExportScanError extends CodedError<ExportScanErrorCode> {}

/** A name an entry point exports that no file outside its library imports. */
export interface UnusedExport {
  entry: string;
  name: string;
}

const SOURCE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', 'out-tsc']);
const PROJECT_FOLDERS = ['apps', 'libs', 'tools'];

interface Entry {
  importPath: string;
  /** The entry file and the library folder it belongs to, relative to the root, with `/`. */
  file: string;
  library: string;
}

/** A name imported from an import path; `*` when the whole module is (a namespace or a dynamic import). */
interface Use {
  importPath: string;
  name: string;
  file: string;
}

/** The unused exports of every library under `root`, by entry file, then name. */
export function unusedExports(root: string): UnusedExport[] {
  const entries = libraryEntries(root);
  const importPaths = entries.map((entry) => entry.importPath);
  const uses = PROJECT_FOLDERS.flatMap((folder) => sourceFiles(root, folder)).flatMap((file) => usesIn(root, file, importPaths));
  return entries.flatMap((entry) => {
    const names = exportedNames(root, entry);
    const used = new Set(uses.filter((use) => use.importPath === entry.importPath && !use.file.startsWith(`${entry.library}/`)).map((use) => use.name));
    if (used.has('*')) return [];
    const documented = readmeApi(root, entry);
    return names.filter((name) => !used.has(name) && !documented.has(name)).map((name) => ({ entry: entry.file, name }));
  });
}

/** The libraries' import paths, from tsconfig.base.json: each maps to one file under libs/. */
function libraryEntries(root: string): Entry[] {
  const configFile = join(root, 'tsconfig.base.json');
  const { config } = ts.readConfigFile(configFile, (path) => readFileSync(path, 'utf8'));
  const paths: unknown = config?.compilerOptions?.paths;
  if (typeof paths !== 'object' || paths === null)
    throw new ExportScanError('NO_PATHS', `${configFile} has no compilerOptions.paths to name the libraries' entry points`);
  return Object.entries(paths as Record<string, string[]>).flatMap(([importPath, [target]]) => {
    const file = relative(root, join(root, target)).split('\\').join('/');
    const library = /^libs\/[^/]+/.exec(file)?.[0];
    return library ? [{ importPath, file, library }] : [];
  });
}

function sourceFiles(root: string, folder: string): string[] {
  const path = join(root, folder);
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true }).flatMap((item) => {
    const child = `${folder}/${item.name}`;
    if (item.isDirectory()) return SKIPPED_FOLDERS.has(item.name) || item.name.startsWith('.') ? [] : sourceFiles(root, child);
    return item.isFile() && SOURCE_EXTENSIONS.has(extname(item.name)) ? [child] : [];
  });
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
}

/** Every name the file takes from an import path: imports, re-exports, `import('…').Name` types, dynamic imports. */
function usesIn(root: string, file: string, importPaths: string[]): Use[] {
  const text = readFileSync(join(root, file), 'utf8');
  // Most files name no library's import path: they need no parsing.
  if (!importPaths.some((importPath) => text.includes(importPath))) return [];
  const uses: Use[] = [];
  const add = (specifier: ts.Node | undefined, names: string[]): void => {
    if (specifier && ts.isStringLiteralLike(specifier)) uses.push(...names.map((name) => ({ importPath: specifier.text, name, file })));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importedNames(node.importClause));
    else if (ts.isExportDeclaration(node))
      add(node.moduleSpecifier, node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map(originalName) : ['*']);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, [node.qualifier ? leftmost(node.qualifier) : '*']);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(node.expression))) add(node.arguments[0], ['*']);
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return uses;
}

function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (!clause) return [];
  const names = clause.name ? ['default'] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) return [...names, '*'];
  return [...names, ...(bindings?.elements.map(originalName) ?? [])];
}

function originalName(element: ts.ImportSpecifier | ts.ExportSpecifier): string {
  return (element.propertyName ?? element.name).text;
}

function leftmost(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : leftmost(name.left);
}

function isRequire(expression: ts.Expression): boolean {
  return ts.isIdentifier(expression) && expression.text === 'require';
}

/** The names an entry file exports, by its export lists and exported declarations. */
function exportedNames(root: string, entry: Entry): string[] {
  return parse(entry.file, readFileSync(join(root, entry.file), 'utf8')).statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause)
        throw new ExportScanError('STAR_EXPORT', `${entry.file} exports * from a module: name what it exports, so that each name can be checked for use`);
      return ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => element.name.text)
        : [statement.exportClause.name.text];
    }
    if (ts.isExportAssignment(statement)) return ['default'];
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.flatMap((declaration) => (ts.isIdentifier(declaration.name) ? [declaration.name.text] : []));
    const name = (statement as ts.DeclarationStatement).name;
    return name && ts.isIdentifier(name) ? [name.text] : [];
  });
}

/** The names a library's README imports from this entry in its code examples: its public API. */
function readmeApi(root: string, entry: Entry): Set<string> {
  const readme = join(root, entry.library, 'README.md');
  if (!existsSync(readme)) return new Set();
  const code = [...readFileSync(readme, 'utf8').matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((block) => block[1]).join('\n');
  const imports = [...code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/g)].filter((found) => found[2] === entry.importPath);
  return new Set(
    imports.flatMap((found) =>
      found[1]
        .split(',')
        .map(
          (name) =>
            name
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0],
        )
        .filter(Boolean),
    ),
  );
}

// Run as a script (`npx tsx tools/lint/unused-exports.ts [root]`): one line per unused export, exit code 1 when there is one.
if (require.main === module) {
  const found = unusedExports(process.argv[2] ?? join(__dirname, '..', '..'));
  for (const { entry, name } of found) console.log(`${entry}: ${name}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
